import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonl, stuckAt, tempDir } from '../testing';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

const T0 = 1_800_000_000;
const call = (seq: number, t: number, action: string) => ({ seq, t, ev: 'tool_call', call_id: `c${seq}`, name: 'step_discrete', args: { action } });
const result = (seq: number, t: number) => ({ seq, t, ev: 'tool_result', call_id: `c${seq - 1}`, name: 'step_discrete', ok: true });

/** A coding-agent cell with episodes 0-2 ended and episode 3 having written `events`, its trajectory last written at `writtenS`. */
function cell(events: object[], finished = false, writtenS = T0 + 6): string {
  const dir = join(tmp.path, 'std_sdk_m_bare_default');
  mkdirSync(join(dir, 'episodes', '0003'), { recursive: true });
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ runner: 'coding-agent', run: 'std_sdk_m_bare_default', protocol: { episodes: [0, 1, 2, 3, 4] } }));
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ run: 'std_sdk_m_bare_default', finished, planned: [0, 1, 2, 3, 4], episodes: Object.fromEntries([0, 1, 2].map((e) => [String(e), { status: 'evaluated', success: true, engaged: true }])) }));
  for (const e of [0, 1, 2]) mkdirSync(join(dir, 'episodes', String(e).padStart(4, '0')), { recursive: true });
  const trajectory = join(dir, 'episodes', '0003', 'trajectory.jsonl');
  writeFileSync(trajectory, jsonl([{ seq: 0, t: T0, ev: 'episode_start', episode: 3 }, ...events]));
  utimesSync(trajectory, writtenS, writtenS);
  return dir;
}

describe('a coding-agent episode stuck or looping, from its trajectory', () => {
  it('is stuck ten minutes after its trajectory was last written, not before, whatever its events say of the time', async () => {
    const dir = cell([call(1, T0 + 5, 'push_left'), result(2, T0 + 6)]);
    expect(await stuckAt(dir, 'coding-agent', T0 + 6 + 599)).toEqual([]);
    expect(await stuckAt(dir, 'coding-agent', T0 + 6 + 600)).toEqual([{ unit: '3', kind: 'stuck', since: (T0 + 6) * 1000, why: 'no new event for 10 min' }]);
    // Events stamped by a clock far behind (a made-up one): the file's last write is what counts.
    expect(await stuckAt(cell([call(1, 5, 'push_left')], false, T0 + 6), 'coding-agent', T0 + 60)).toEqual([]);
  });

  it('counts quiet from the end of a throttle pause, not from the throttle', async () => {
    const dir = cell([call(1, T0 + 5, 'push_left'), { seq: 2, t: T0 + 6, ev: 'throttle', wait_s: 300, attempt: 1 }], false, T0 + 6);
    expect(await stuckAt(dir, 'coding-agent', T0 + 6 + 600)).toEqual([]);
    expect((await stuckAt(dir, 'coding-agent', T0 + 306 + 600))[0]).toMatchObject({ kind: 'stuck', since: (T0 + 306) * 1000, why: 'no new event for 10 min after its throttle pause ended' });
  });

  it('is looping at the fifth same call in a row, its results between them; another argument breaks the run', async () => {
    const same = (n: number, from = 1) => Array.from({ length: n }, (_, i) => [call(from + 2 * i, T0 + from + 2 * i, 'push_left'), result(from + 2 * i + 1, T0 + from + 2 * i + 1)]).flat();
    expect(await stuckAt(cell(same(4)), 'coding-agent', T0 + 20)).toEqual([]);
    expect(await stuckAt(cell(same(5)), 'coding-agent', T0 + 20)).toEqual([{ unit: '3', kind: 'looping', since: (T0 + 1) * 1000, why: 'the same call 5 times in a row: step_discrete {"action":"push_left"}' }]);
    expect(await stuckAt(cell([...same(5), call(11, T0 + 11, 'push_right')]), 'coding-agent', T0 + 20)).toEqual([]);
  });

  it('has no running unit once its run is finished, or when its newest episode has ended', async () => {
    const dir = cell([call(1, T0 + 5, 'push_left')], true);
    expect(await stuckAt(dir, 'coding-agent', T0 + 6000)).toEqual([]);
  });
});
