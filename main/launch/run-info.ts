import { cellId } from '../../shared/address';
import type { RunInfo } from '../../shared/launch';
import type { RunView } from './runs';

/** A launched run as the window and the CLI see it; `vramPeakMib`, the most GPU memory its processes held while sampled. */
export function runInfo(run: RunView, vramPeakMib: number | null): RunInfo {
  return {
    id: run.id,
    name: run.name,
    profile: run.profile,
    target: run.target,
    host: run.host,
    cell: run.cell,
    cellId: cellId(run.host, run.listed ?? run.cell),
    pid: run.pid,
    job: run.seen?.job ?? null,
    gpu: run.gpu,
    startedAt: run.startedAt,
    endedAt: run.endedAt ?? null,
    state: run.state,
    exitCode: run.exitCode,
    canDrain: run.canDrain,
    resumes: run.resumeKnob !== undefined && run.values !== undefined ? (run.resumeSpec ?? 'episodes') : null,
    stderrTail: run.stderrTail,
    vramPeakMib,
    problem: run.problem,
  };
}
