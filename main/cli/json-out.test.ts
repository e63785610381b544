// What a command prints with --json is read by scripts and shown in terminals: valid JSON, whatever a run
// directory's strings hold, with no character a terminal takes for an escape sequence.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonl, tempDir, writeTree } from '../../runners/testing';
import { terminalJson } from '../../shared/json';
import { runCli } from './run';
import { capture } from './testing';

// eslint-disable-next-line no-control-regex -- what must not reach a terminal: every control character but the newline
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** A name with a C0 escape (ESC), DEL and two C1 controls (NEL, and CSI: a terminal reads `\u009b2J` as "clear the screen"). */
const HOSTILE = 'std_x\u001b[31m\u007f\u0085\u009b2J';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

describe('terminalJson', () => {
  it('is the value again when parsed, and holds no control character but the newlines it indents with, whatever its strings hold', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.constantFrom(undefined, 2), (value, space) => {
        const text = terminalJson(value, space);
        expect(text).not.toMatch(CONTROL);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('--json output', () => {
  it("status: a cell's name with control characters in it is valid JSON, and says the name as the run does", async () => {
    writeTree(tmp.path, { 'cell/run.json': { runner: 'coding-agent', run: HOSTILE } });
    const { io, out } = capture();
    expect(await runCli(['status', '--json', tmp.path], io)).toBe(0);
    const text = out.join('\n');
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain('\\u009b2J');
    expect(JSON.parse(text).cells.map((c: { name: string }) => c.name)).toEqual([HOSTILE]);
  });

  it('tail: an event whose fields hold control characters is one valid JSON line', async () => {
    writeTree(tmp.path, {
      'std_a/run.json': { runner: 'coding-agent', run: 'std_a' },
      'std_a/episodes/0000/trajectory.jsonl': jsonl([{ seq: 0, t: 1, ev: 'agent_message', text: HOSTILE }]),
    });
    const stop = new AbortController();
    const { io, out } = capture();
    const running = runCli(['tail', '--json', `${tmp.path}/std_a`], io, stop.signal);
    await expect.poll(() => out.length).toBe(1);
    stop.abort();
    expect(await running).toBe(0);
    expect(out[0]).not.toMatch(CONTROL);
    expect(JSON.parse(out[0] as string)).toMatchObject({ episode: '0', ev: 'agent_message', text: HOSTILE });
  });
});
