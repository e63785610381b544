import type { GpuSample, GpuStatus } from '../../shared/machine';
import { problem, type Problem } from '../../shared/model';
import { GpuSampler, type SamplerOptions } from './sampler';

/** Samples kept for the GPU panel's timeline: ten minutes at 1 Hz. */
const HISTORY = 600;

export interface GpuFeed {
  status(): GpuStatus;
  /** The GPUs of the latest sample. */
  latest(): GpuSample['gpus'] | undefined;
  /** Samples every `intervalMs` from now on, the history kept. */
  pace(intervalMs: number): void;
  stop(): void;
}

export interface GpuFeedOptions {
  /** The nvidia-smi to run; false: no sampling (tests). */
  command: string | false;
  onSample(sample: GpuSample): void;
  /** The launched run a process belongs to, to name it in the GPU view. */
  runOf?(pid: number): string | undefined;
  /** How nvidia-smi runs on its host (and how often it is asked for processes); absent: on this machine. */
  place?: Pick<SamplerOptions, 'spawn' | 'once' | 'processesEveryMs' | 'intervalMs'>;
}

/** The core's GPU sampler: keeps recent samples and the problems it met, and passes each sample on. */
export function startGpu({ command, onSample, runOf = () => undefined, place }: GpuFeedOptions): GpuFeed {
  const history: GpuSample[] = [];
  const problems: Problem[] = [];
  if (command === false) return { status: () => ({ available: false, problems: [problem('nvidia-smi', 'GPU sampling is off', { severity: 'warning' })], history }), latest: () => undefined, pace: () => undefined, stop: () => undefined };
  const sampler = new GpuSampler({
    command,
    ...place,
    onSample(raw) {
      const sample: GpuSample = { ...raw, processes: raw.processes.map((p) => ({ ...p, run: runOf(p.pid) })) };
      history.push(sample);
      if (history.length > HISTORY) history.shift();
      onSample(sample);
    },
    onProblem(found) {
      problems.push(found);
      if (problems.length > 20) problems.shift();
    },
  });
  sampler.start();
  return {
    status: () => ({ available: history.length > 0, problems: [...problems], history: [...history] }),
    latest: () => history.at(-1)?.gpus,
    pace: (intervalMs) => sampler.pace(intervalMs),
    stop: () => sampler.stop(),
  };
}
