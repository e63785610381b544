import type { GpuSample, GpuStatus } from '../../shared/cell-detail';
import { GpuSampler, type SamplerOptions } from './sampler';

/** Samples kept for the GPU panel's timeline: ten minutes at 1 Hz. */
const HISTORY = 600;

export interface GpuFeed {
  status(): GpuStatus;
  /** The GPUs of the latest sample. */
  latest(): GpuSample['gpus'] | undefined;
  stop(): void;
}

/** The core's GPU sampler: keeps recent samples and the problems it met, and passes each sample on. */
export function startGpu(
  command: string | false,
  onSample: (sample: GpuSample) => void,
  runOf: (pid: number) => string | undefined = () => undefined,
  remote?: Pick<SamplerOptions, 'spawn' | 'once'>,
): GpuFeed {
  const history: GpuSample[] = [];
  const problems: string[] = [];
  if (command === false) return { status: () => ({ available: false, problems: ['GPU sampling is off'], history }), latest: () => undefined, stop: () => undefined };
  const sampler = new GpuSampler({
    command,
    ...remote,
    onSample(raw) {
      const sample: GpuSample = { ...raw, processes: raw.processes.map((p) => ({ ...p, run: runOf(p.pid) })) };
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
    latest: () => history.at(-1)?.gpus,
    stop: () => sampler.stop(),
  };
}
