// A command that runs on until stopped (tail, alerts) ends when its caller stops it, even while it still
// starts: tail's first events print before it listens for the stop, and a caller that has seen them stops it then.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonl, tempDir, writeTree } from '../../runners/testing';
import { runCli } from './run';
import { capture } from './testing';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
  writeTree(tmp.path, {
    'std_a/run.json': { runner: 'coding-agent', run: 'std_a' },
    'std_a/episodes/0000/trajectory.jsonl': jsonl([{ seq: 0, t: 1, ev: 'agent_message', text: 'hello' }]),
  });
});
afterEach(() => tmp.remove());

describe('a command stopped before it listens for the stop', () => {
  it('tail prints what it read and ends', async () => {
    const stop = new AbortController();
    stop.abort();
    const { io, out } = capture();
    expect(await runCli(['tail', '--json', `${tmp.path}/std_a`], io, stop.signal)).toBe(0);
    expect(out.map((line) => JSON.parse(line).text)).toEqual(['hello']);
  });

  it('alerts ends once it has looked at its roots', async () => {
    const stop = new AbortController();
    stop.abort();
    const { io, err } = capture();
    expect(await runCli(['alerts', tmp.path], io, stop.signal)).toBe(0);
    expect(err).toContainEqual(expect.stringMatching(/^watching 1 cell;/));
  });
});
