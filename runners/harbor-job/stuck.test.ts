import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stuckAt, tempDir, writeTree } from '../testing';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

const T0 = 1_800_000_000;
const TRIAL = 'hello-world__aB3dE5f';
/** An ATIF step of the agent calling `command` in the terminal. */
const step = (id: number, command: string) => ({ step_id: id, source: 'agent', timestamp: new Date((T0 + id) * 1000).toISOString(), message: '', tool_calls: [{ tool_call_id: `c${id}`, function_name: 'bash', arguments: { command } }] });

/** A Harbor job running one trial with no result yet: its trial.log last written at `logS`, its trajectory's steps `steps` (none: no trajectory yet). */
function job(logS: number, steps: object[] | null, finished = false): string {
  const dir = join(tmp.path, 'job');
  writeTree(dir, {
    'config.json': { job_name: 'job', n_attempts: 1 },
    'result.json': { n_total_trials: 1, stats: { n_running_trials: 1 }, finished_at: finished ? '2027-01-15T08:00:00' : null },
    [`${TRIAL}/config.json`]: { task: { path: 'tasks/hello-world' } },
    [`${TRIAL}/trial.log`]: 'starting\n',
    ...(steps ? { [`${TRIAL}/agent/trajectory.json`]: { schema_version: 'ATIF-v1.4', steps } } : {}),
  });
  utimesSync(join(dir, TRIAL, 'trial.log'), logS, logS);
  if (steps) utimesSync(join(dir, TRIAL, 'agent', 'trajectory.json'), T0, T0);
  return dir;
}

describe('a Harbor trial stuck or looping, from its folder', () => {
  it('is stuck ten minutes after its trial.log or its trajectory was last written, not before', async () => {
    expect(await stuckAt(job(T0, null), 'harbor-job', T0 + 599)).toEqual([]);
    expect(await stuckAt(job(T0, null), 'harbor-job', T0 + 600)).toEqual([{ unit: TRIAL, kind: 'stuck', since: T0 * 1000, why: 'no new event for 10 min' }]);
    // Its log written since the trajectory: quiet from the later write.
    expect(await stuckAt(job(T0 + 300, [step(1, 'ls')]), 'harbor-job', T0 + 600)).toEqual([]);
  });

  it('is looping when its trajectory ends on the fifth same call in a row; another command breaks the run', async () => {
    const same = (n: number) => Array.from({ length: n }, (_, i) => step(i + 1, 'cat /app/out.txt'));
    expect(await stuckAt(job(T0, same(4)), 'harbor-job', T0 + 10)).toEqual([]);
    expect(await stuckAt(job(T0, same(5)), 'harbor-job', T0 + 10)).toEqual([{ unit: TRIAL, kind: 'looping', since: (T0 + 1) * 1000, why: 'the same call 5 times in a row: bash {"command":"cat /app/out.txt"}' }]);
    expect(await stuckAt(job(T0, [...same(5), step(6, 'ls')]), 'harbor-job', T0 + 10)).toEqual([]);
  });

  it('has no running trial once the job has finished', async () => {
    expect(await stuckAt(job(T0, null, true), 'harbor-job', T0 + 6000)).toEqual([]);
  });
});
