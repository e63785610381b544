import { mkdir, rm } from 'node:fs/promises';
import { writeBigymCell } from './bigym';
import { CONDITIONS, writeCodingAgentCell } from './coding-agent';
import { writeEvopolicygymRecord } from './evopolicygym';
import { DemoStopped, Pace } from './pace';

export interface DemoOptions {
  /** Nominal seconds per real second when live. */
  speed: number;
  /** Write everything at once instead of live. */
  instant: boolean;
  signal?: AbortSignal;
  /** Epoch seconds the nominal clock starts at (default: now). */
  startEpochS?: number;
}

/**
 * The built-in demo: a simulated cart-pole task and a scripted agent, written as real runners write
 * their run directories (a bigym-agent cell, two coding-agent cells, an evopolicygym record).
 * Starts from an empty folder; resolves when every cell is finished or the signal stops it.
 */
export async function runDemo(root: string, options: DemoOptions): Promise<'finished' | 'stopped'> {
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const start = options.startEpochS ?? Date.now() / 1000;
  const pace = () => new Pace(start, options.speed, options.instant, options.signal);
  try {
    await Promise.all([
      writeBigymCell(root, pace()),
      ...CONDITIONS.map(({ condition, gains }) => writeCodingAgentCell(root, condition, gains, pace())),
      writeEvopolicygymRecord(root, pace()),
    ]);
    return 'finished';
  } catch (error) {
    if (error instanceof DemoStopped) return 'stopped';
    throw error;
  }
}
