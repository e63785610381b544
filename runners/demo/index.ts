import { writeStuckCells } from './stuck';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LAUNCHER_FILES } from '../../shared/launch';
import { INTERRUPTED_TASK, writeBigymCell } from './bigym';
import { CELLS, writeCodingAgentCell } from './coding-agent';
import { writeEvopolicygymRecord } from './evopolicygym';
import { writeInspectLogs } from './inspect';
import { writeNemoCollection } from './nemo-gym';
import { DemoStopped, Pace } from './pace';

export interface DemoOptions {
  /** Nominal seconds per real second when live. */
  speed: number;
  /** Write everything at once instead of live. */
  instant: boolean;
  signal?: AbortSignal;
  /** Epoch seconds the nominal clock starts at (default: now). */
  startEpochS?: number;
  /** Write one cell of this format, named `name`, beside whatever else the folder holds. */
  only?: { format: DemoFormat; name: string };
}

/** What the demo writes, in words (`cellwatch demo --help`). */
export const DEMO_CONTENTS =
  'a simulated cart-pole task and a scripted agent, as two bigym-agent sessions (one interrupted), four coding-agent cells on one board, an evopolicygym record, a NeMo Gym rollout collection of two agents and the Inspect AI logs of two models on one task';

export type DemoFormat = 'coding-agent' | 'bigym-agent' | 'evopolicygym' | 'nemo-gym' | 'inspect';
export const DEMO_FORMATS: readonly DemoFormat[] = ['coding-agent', 'bigym-agent', 'evopolicygym', 'nemo-gym', 'inspect'];

/** Empties a cell to write it again, keeping what the launcher of this demo run writes there (its output). */
async function clearCell(cell: string): Promise<void> {
  const entries = await readdir(cell).catch(() => [] as string[]);
  await Promise.all(entries.filter((name) => !LAUNCHER_FILES.includes(name)).map((name) => rm(join(cell, name), { recursive: true, force: true })));
}

/**
 * The built-in demo: a simulated cart-pole task and a scripted agent, written as real runners write
 * their run directories (a bigym-agent cell, an interrupted bigym-agent session, four coding-agent cells (a 2x2 board), an evopolicygym record, a NeMo
 * Gym rollout collection of two agents, the Inspect logs of two models on one task).
 * Starts from an empty folder; resolves when every cell is finished or the signal stops it.
 */
export async function runDemo(root: string, options: DemoOptions): Promise<'finished' | 'stopped'> {
  const only = options.only;
  if (only) await clearCell(join(root, only.name));
  else await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const start = options.startEpochS ?? Date.now() / 1000;
  const pace = () => new Pace(start, options.speed, options.instant, options.signal);
  const writers = only
    ? [
        only.format === 'bigym-agent'
          ? writeBigymCell(root, pace(), only.name)
          : only.format === 'evopolicygym'
            ? writeEvopolicygymRecord(root, pace(), only.name)
            : only.format === 'nemo-gym'
              ? writeNemoCollection(root, pace(), only.name)
              : only.format === 'inspect'
                ? writeInspectLogs(root, pace(), only.name)
                : writeCodingAgentCell(root, CELLS[0] as (typeof CELLS)[number], pace(), only.name),
      ]
    : [
        writeBigymCell(root, pace()),
        writeBigymCell(root, pace(), INTERRUPTED_TASK, true),
        ...CELLS.map((cell) => writeCodingAgentCell(root, cell, pace())),
        writeEvopolicygymRecord(root, pace()),
        writeNemoCollection(root, pace()),
        writeInspectLogs(root, pace()),
        // A live demo shows what a person watching must catch: a stuck unit and a looping one (the instant one, for specs, keeps to the rest).
        ...(options.instant ? [] : [writeStuckCells(root, Date.now() / 1000)]),
      ];
  // Every writer settled, not the first to stop: stopped, the others' writes under way end before this
  // resolves (a summary.json half rewritten, a folder removed and written into again).
  const settled = await Promise.allSettled(writers);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected' && !(s.reason instanceof DemoStopped));
  if (failed) throw failed.reason;
  return settled.some((s) => s.status === 'rejected') ? 'stopped' : 'finished';
}
