import { cpSync, mkdirSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../runners/testing';
import { mcnemarExactP } from '../../shared/mcnemar';
import { runCli } from './run';
import { capture } from './testing';
import { copyInstantDemo } from '../../runners/demo/testing';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

const STD_V2 = { name: 'std-v2', max_turns: 200, rgb_resolution: 512, max_actions: 500, timeout_s: 2400 };

/** A finished coding-agent cell whose episode i succeeded where `outcomes[i]` is 1. */
function cell(name: string, labels: { harness: string; model: string; condition: string }, outcomes: string, protocol: object = STD_V2): void {
  const episodes = Object.fromEntries([...outcomes].map((o, i) => [String(i), { status: 'evaluated', success: o === '1', engaged: true }]));
  writeTree(join(tmp.path, name), {
    'run.json': { runner: 'coding-agent', run: basename(name), cell: { ...labels, effort: 'default' }, protocol: { ...protocol, episodes: Object.keys(episodes).map(Number) } },
    'summary.json': { run: basename(name), finished: true, planned: Object.keys(episodes).map(Number), episodes },
  });
}

const twenty = (ones: number) => '1'.repeat(ones) + '0'.repeat(20 - ones);

describe('cellwatch board', () => {
  beforeEach(() => {
    cell('std_sdk_m1_bare_default', { harness: 'sdk', model: 'm1', condition: 'bare' }, twenty(4));
    cell('std_sdk_m1_full_default', { harness: 'sdk', model: 'm1', condition: 'full' }, twenty(18));
    cell('std_cli_m1_bare_default', { harness: 'cli', model: 'm1', condition: 'bare' }, twenty(5));
    cell('std_cli_m2_full_default', { harness: 'cli', model: 'm2', condition: 'full' }, twenty(17));
    cell('std_sdk_m1_short_default', { harness: 'sdk', model: 'm1', condition: 'short' }, twenty(20), { ...STD_V2, max_turns: 50 });
    cell('ui_sdk_m1_bare_default', { harness: 'sdk', model: 'm1', condition: 'bare' }, twenty(0));
  });

  it('prints the pinned JSON: cells with labels, counts and interval; exactly the one-field pairs, Holm-adjusted', async () => {
    const { io, out } = capture();
    expect(await runCli(['board', '--json', tmp.path], io)).toBe(0);
    const { cells, comparisons } = JSON.parse(out.join('\n'));
    const on = cells.filter((c: { board: string }) => c.board === 'on').map((c: { name: string }) => c.name);
    expect(on).toEqual(['std_cli_m1_bare_default', 'std_cli_m2_full_default', 'std_sdk_m1_bare_default', 'std_sdk_m1_full_default']);
    const short = cells.find((c: { name: string }) => c.name === 'std_sdk_m1_short_default');
    expect(short).toMatchObject({ board: 'off', board_reasons: ['50 turns; std-v2 has 200 turns'], harness: 'sdk', model: 'm1', condition: 'short', effort: 'default', scored: 20, successes: 20 });
    expect(short.ci95[0]).toBeCloseTo(0.8388748, 6);
    const path = (name: string) => join(tmp.path, name);
    // sdk bare vs full (condition) and sdk vs cli on m1 bare (harness); cli m1 bare vs cli m2 full differ in two fields.
    expect(comparisons.map((c: { a: string; b: string; field: string }) => [c.a, c.b, c.field])).toEqual([
      [path('std_cli_m1_bare_default'), path('std_sdk_m1_bare_default'), 'harness'],
      [path('std_sdk_m1_bare_default'), path('std_sdk_m1_full_default'), 'condition'],
    ]);
    const [harness, condition] = comparisons;
    expect(harness).toMatchObject({ both: 4, only_a: 1, only_b: 0, neither: 15, left_out: 0, p_value: 1, p_adjusted: 1 });
    expect(condition).toMatchObject({ both: 4, only_a: 0, only_b: 14, neither: 2, p_value: mcnemarExactP(0, 14) });
    expect(condition.p_adjusted).toBeCloseTo(2 * mcnemarExactP(0, 14), 15);
    // Time to significance: the real one has decided; 1 to 0 with no unit of the plan left cannot.
    expect([condition.decides_in, condition.futile, harness.decides_in, harness.futile]).toEqual([0, false, null, true]);
    // The cost frontier: no cell here says its tokens, so none has a cost.
    expect(cells.map((c: { pareto: unknown; cost_per_unit: unknown }) => [c.pareto, c.cost_per_unit]).filter(([p]: unknown[]) => p !== null)).toEqual([]);
  });

  it('a copy of a run folder elsewhere in the root takes no square: both leave the board naming the other, both are shown, neither is compared', async () => {
    // A backup of the full run, its files touched later, that says 20 of 20.
    cell(join('backup', 'std_sdk_m1_full_default'), { harness: 'sdk', model: 'm1', condition: 'full' }, twenty(20));
    const { io, out } = capture();
    expect(await runCli(['board', '--json', tmp.path], io)).toBe(0);
    const { cells, comparisons } = JSON.parse(out.join('\n'));
    const real = join(tmp.path, 'std_sdk_m1_full_default');
    const copy = join(tmp.path, 'backup', 'std_sdk_m1_full_default');
    const full = cells.filter((c: { name: string }) => c.name === 'std_sdk_m1_full_default');
    expect(full.map((c: { path: string }) => c.path).sort()).toEqual([copy, real]);
    for (const [self, other] of [[real, copy], [copy, real]]) {
      const row = full.find((c: { path: string }) => c.path === self);
      expect(row.board).toBe('off');
      expect(row.board_reasons).toEqual([`another cell claims its board crossing: ${other}`]);
      expect(row.problems).toEqual([expect.objectContaining({ file: self, message: `another cell claims its board crossing: ${other}` })]);
    }
    expect(comparisons.filter((c: { a: string; b: string }) => [c.a, c.b].some((p) => p === real || p === copy))).toEqual([]);
    expect(comparisons.map((c: { field: string }) => c.field)).toEqual(['harness']);

    const text = capture();
    expect(await runCli(['board', tmp.path], text.io)).toBe(0);
    const row = text.out.join('\n').split('\n').find((line) => line.startsWith('sdk · full'));
    expect(row).toMatch(/20\/20 .*\(claimed twice\) \| 18\/20 .*\(claimed twice\)/);
  });

  it('compares across the roots it is given as within one, whichever root sorts first, a copy in another root taking no square', async () => {
    const whole = capture();
    expect(await runCli(['board', '--json', tmp.path], whole.io)).toBe(0);
    // By the cells' names, each pair one way round: the order of two cells' paths is their roots' order.
    const byName = (text: string) =>
      (JSON.parse(text).comparisons as { a: string; b: string; only_a: number; only_b: number; field: string }[])
        .map((c) => (basename(c.a) < basename(c.b) ? { ...c, a: basename(c.a), b: basename(c.b) } : { ...c, a: basename(c.b), b: basename(c.a), only_a: c.only_b, only_b: c.only_a }))
        .sort((x, y) => `${x.a} ${x.b} ${x.field}`.localeCompare(`${y.a} ${y.b} ${y.field}`));
    expect(byName(whole.out.join('\n'))).toHaveLength(2);
    // The same cells in two roots, the second sorting after the first, then before it: the units of every
    // cell are asked for as each root is read.
    const base = tempDir();
    try {
      for (const second of ['z', 'a']) {
        const [first, other] = [join(base.path, `m${second}`), join(base.path, second)];
        cpSync(tmp.path, first, { recursive: true });
        mkdirSync(other);
        for (const name of ['std_cli_m1_bare_default', 'std_cli_m2_full_default']) renameSync(join(first, name), join(other, name));
        const apart = capture();
        expect(await runCli(['board', '--json', first, other], apart.io)).toBe(0);
        expect(byName(apart.out.join('\n'))).toEqual(byName(whole.out.join('\n')));
      }
      // A copy in the second root of a cell of the first, known only once both are read: neither is compared.
      cpSync(join(base.path, 'ma', 'std_sdk_m1_bare_default'), join(base.path, 'a', 'std_sdk_m1_bare_default'), { recursive: true });
      const copied = capture();
      expect(await runCli(['board', '--json', join(base.path, 'ma'), join(base.path, 'a')], copied.io)).toBe(0);
      expect(byName(copied.out.join('\n'))).toEqual([]);
    } finally {
      base.remove();
    }
  });

  it("escapes a control character in a cell's name as JSON does, so the output is both valid JSON and safe for a terminal", async () => {
    // U+009B is a C1 control (CSI): JSON.stringify leaves it raw, and a terminal would read an escape sequence.
    cell('std_sdk_m1_bare\u009b2J_default', { harness: 'sdk', model: 'm3', condition: 'bare' }, twenty(3));
    const { io, out } = capture();
    expect(await runCli(['board', '--json', tmp.path], io)).toBe(0);
    const text = out.join('\n');
    expect(text).not.toMatch(/[\u007f-\u009f]/);
    expect(text).toContain('\\u009b2J');
    const { cells, comparisons } = JSON.parse(text);
    expect(cells.map((c: { name: string }) => c.name)).toContain('std_sdk_m1_bare\u009b2J_default');
    expect(comparisons.some((c: { a: string; b: string }) => c.a.endsWith('\u009b2J_default') || c.b.endsWith('\u009b2J_default'))).toBe(true);
  });

  it('writes comparisons that fill several buffers of the worker writing them whole and in order', async () => {
    // 110 models on one row: 5,995 pairs, about 1.6 MB of comparisons, where the worker hands on a megabyte at a time.
    for (let m = 0; m < 110; m++) cell(`std_many_m${String(m).padStart(3, '0')}_bare_default`, { harness: 'many', model: `m${String(m).padStart(3, '0')}`, condition: 'bare' }, twenty(m % 21));
    const { io, out } = capture();
    expect(await runCli(['board', '--json', tmp.path], io)).toBe(0);
    const { comparisons } = JSON.parse(out.join('\n'));
    const many = comparisons.filter((c: { a: string }) => c.a.includes('std_many_'));
    expect(many).toHaveLength((110 * 109) / 2);
    const keys = comparisons.map((c: { a: string; b: string }) => `${c.a}\t${c.b}`);
    expect(keys).toEqual([...keys].sort());
    expect(many[many.length - 1]).toMatchObject({ a: join(tmp.path, 'std_many_m108_bare_default'), b: join(tmp.path, 'std_many_m109_bare_default'), field: 'model', both: 3, only_a: 0, only_b: 1, neither: 16 });
  });

  it('pairs the same episodes from the index cache on the next start, and again from the files once a cell changed', async () => {
    const data = tempDir();
    const saved = process.env.XDG_DATA_HOME;
    process.env.XDG_DATA_HOME = data.path;
    try {
      const board = async () => {
        const { io, out } = capture();
        expect(await runCli(['board', '--json', tmp.path], io)).toBe(0);
        return JSON.parse(out.join('\n')).comparisons as { field: string; only_b: number }[];
      };
      const first = await board();
      expect(await board()).toEqual(first);
      cell('std_sdk_m1_full_default', { harness: 'sdk', model: 'm1', condition: 'full' }, twenty(10));
      expect((await board()).find((c) => c.field === 'condition')?.only_b).toBe(6);
    } finally {
      process.env.XDG_DATA_HOME = saved;
      data.remove();
    }
  });

  it('prints each board as a table, a column per model, and the differences that survive the correction', async () => {
    const { io, out } = capture();
    expect(await runCli(['board', tmp.path], io)).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('coding-agent std-v2');
    expect(text).toMatch(/HARNESS · CONDITION · EFFORT\s+m1\s+m2/);
    expect(text).toMatch(/sdk · full · default\s+18\/20 90\.0% \[69\.9-97\.2\]/);
    expect(text).toContain(`condition full beats bare (${join(tmp.path, 'std_sdk_m1_full_default')} vs ${join(tmp.path, 'std_sdk_m1_bare_default')}): 14 to 0 discordant`);
    expect(text).toContain('std_sdk_m1_short_default (off): 50 turns; std-v2 has 200 turns');
    expect(text).toContain('ui_sdk_m1_bare_default (ui): launched from a UI (ui_): never on the board');
  });
});

describe('cellwatch board on the demo', () => {
  it('counts what it compared in words, one or many: the Inspect board of two models is one comparison', async () => {
    copyInstantDemo(join(tmp.path, 'runs'));
    const { io, out } = capture();
    expect(await runCli(['board', join(tmp.path, 'runs')], io)).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/^inspect demo_arith\n(.*\n){2} {2}no difference survives Holm's correction \(1 one-field comparison\)$/m);
  });

  it("lays out a NeMo Gym collection of two agents as a square each, compared as the Paired test pairs FILE@AGENT, from the files and from the index cache", async () => {
    copyInstantDemo(join(tmp.path, 'runs'));
    const data = tempDir();
    const saved = process.env.XDG_DATA_HOME;
    process.env.XDG_DATA_HOME = data.path;
    try {
      const { io, out } = capture();
      expect(await runCli(['board', join(tmp.path, 'runs')], io)).toBe(0);
      expect(out.join('\n')).toMatch(/^nemo-gym nemo_math\n.*demo\/agent-model\ndemo_claude_code_agent · \? · \? +20\/24 83\.3% \[64\.1-93\.3\]\ndemo_codex_agent · \? · \? +12\/23 52\.2% \[33\.0-70\.8\] \(23 of 24\)\n {2}no difference survives Holm's correction \(1 one-field comparison\)$/m);
      const collection = join(tmp.path, 'runs', 'nemo_math', 'rollouts.jsonl');
      const [claude, codex] = [`${collection}@demo_claude_code_agent`, `${collection}@demo_codex_agent`];
      const paired = capture();
      expect(await runCli(['mcnemar', '--json', claude, codex], paired.io)).toBe(0);
      const { both, only_a, only_b, neither, p_value } = JSON.parse(paired.out.join('\n'));
      // Twice: the second start takes the collection's units from the index cache.
      for (let start = 0; start < 2; start++) {
        const json = capture();
        expect(await runCli(['board', '--json', join(tmp.path, 'runs')], json.io)).toBe(0);
        const board = JSON.parse(json.out.join('\n'));
        expect(board.cells.filter((c: { format: string }) => c.format === 'nemo-gym').map((c: { path: string; harness: string; board: string }) => [c.path, c.harness, c.board])).toEqual([
          [claude, 'demo_claude_code_agent', 'on'],
          [codex, 'demo_codex_agent', 'on'],
        ]);
        expect(board.comparisons.find((c: { a: string }) => c.a === claude)).toMatchObject({ b: codex, field: 'harness', both, only_a, only_b, neither, p_value });
      }
    } finally {
      process.env.XDG_DATA_HOME = saved;
      data.remove();
    }
  });
});
