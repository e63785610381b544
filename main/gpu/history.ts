import type { GpuSampleShown, GpuStatus } from '../../shared/cell-detail';
import { GpuSampler } from './sampler';

/** Samples kept for the GPU panel's timeline: ten minutes at 1 Hz. */
const HISTORY = 600;

export interface GpuFeed {
  status(): GpuStatus;
  stop(): void;
}

/** The core's GPU sampler: keeps recent samples and the problems it met, and passes each sample on. */
export function startGpu(command: string | false, onSample: (sample: GpuSampleShown) => void): GpuFeed {
  const history: GpuSampleShown[] = [];
  const problems: string[] = [];
  if (command === false) return { status: () => ({ available: false, problems: ['GPU sampling is off'], history }), stop: () => undefined };
  const sampler = new GpuSampler({
    command,
    onSample(sample) {
      history.push(sample);
      if (history.length > HISTORY) history.shift();
      onSample(sample);
    },
    onProblem(problem) {
      problems.push(problem.message);
      if (problems.length > 20) problems.shift();
    },
  });
  sampler.start();
  return {
    status: () => ({ available: history.length > 0, problems: [...problems], history: [...history] }),
    stop: () => sampler.stop(),
  };
}
