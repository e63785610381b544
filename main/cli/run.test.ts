import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { ADAPTERS } from '../../runners';
import { runCli } from './run';
import { capture } from './testing';

describe('cellwatch CLI', () => {
  it('prints its version', async () => {
    const { io, out } = capture();
    expect(await runCli(['--version'], io)).toBe(0);
    expect(out).toEqual([pkg.version]);
  });

  it('prints help that names serve', async () => {
    const { io, out } = capture();
    expect(await runCli(['--help'], io)).toBe(0);
    expect(out.join('\n')).toMatch(/serve \[--port N\]/);
  });

  it('prints a command\'s own help with --help, each command once in the whole help', async () => {
    const own = capture();
    expect(await runCli(['status', '--help'], own.io)).toBe(0);
    expect(own.out.join('\n')).toMatch(/^cellwatch status \[--json \| --explain\]/);
    const all = capture();
    expect(await runCli(['--help'], all.io)).toBe(0);
    const text = all.out.join('\n');
    for (const command of ['serve', 'status', 'episodes', 'audit', 'tail', 'alerts', 'mcnemar', 'gpu', 'launch', 'runs', 'record', 'demo']) {
      expect(text.match(new RegExp(`^cellwatch ${command} `, 'gm'))?.length, command).toBe(1);
    }
  });

  it("names, in episodes' and mcnemar's help, what every format pairs and each way to name a side inside a cell, in lines of at most 100", async () => {
    const helpOf = async (command: string) => {
      const { io, out } = capture();
      expect(await runCli([command, '--help'], io)).toBe(0);
      return out.join('\n');
    };
    const [episodes, mcnemar] = [await helpOf('episodes'), await helpOf('mcnemar')];
    const words = (text: string) => text.replace(/\s+/g, ' ');
    for (const { format, pairing } of Object.values(ADAPTERS)) {
      expect(words(episodes), format).toContain(pairing.units);
      if (pairing.side) for (const help of [episodes, mcnemar]) expect(words(help), format).toContain(pairing.side);
    }
    expect(words(episodes)).toContain("an Inspect AI log's samples");
    expect(words(mcnemar)).toMatch(/CELL@vNNN .*, FILE@AGENT /);
    for (const line of [...episodes.split('\n'), ...mcnemar.split('\n')].filter((l) => !l.startsWith('  --json'))) expect(line.length, line).toBeLessThanOrEqual(100);
  });

  it('exits 2 naming an unknown command', async () => {
    const { io, err } = capture();
    expect(await runCli(['frobnicate'], io)).toBe(2);
    expect(err[0]).toContain('unknown command "frobnicate"');
  });

  it('exits 2 on a bad port, naming it', async () => {
    const { io, err } = capture();
    expect(await runCli(['serve', '--port', 'abc'], io)).toBe(2);
    expect(err[0]).toContain('--port must be a number');
  });

  it('exits 2 on an unknown option', async () => {
    const { io, err } = capture();
    expect(await runCli(['serve', '--colour'], io)).toBe(2);
    expect(err[0]).toContain("'--colour'");
  });

  it('audits a root: each bigym transcript line naming a path outside its sandbox, as JSON and as text', async () => {
    const { tempDir, writeTree } = await import('../../runners/testing');
    const tmp = tempDir();
    try {
      writeTree(tmp.path, { 'move_plate/run.json': { runner: 'bigym-agent' }, 'move_plate/transcript.md': '$ ls /move_plate/sandbox\n$ cat /etc/hosts\n' });
      const json = capture();
      expect(await runCli(['audit', '--json', tmp.path], json.io)).toBe(0);
      expect(JSON.parse(json.out.join('\n')).cells).toEqual([{ cell: `local:${tmp.path}/move_plate`, findings: [{ file: 'transcript.md', line: 2, path: '/etc/hosts', text: '$ cat /etc/hosts' }] }]);
      const text = capture();
      expect(await runCli(['audit', tmp.path], text.io)).toBe(0);
      expect(text.out).toEqual(['move_plate: 1 line naming a path outside the sandbox', '  transcript.md:2  /etc/hosts  $ cat /etc/hosts']);
    } finally {
      tmp.remove();
    }
  });
});
