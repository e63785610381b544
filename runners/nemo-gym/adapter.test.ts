import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcnemarExactP, pairUnits } from '../../shared/mcnemar';
import { boardRows } from '../../shared/board';
import { agentUnits, encodeUnits } from '../../shared/units';
import { localFs, type CellFs } from '../common/fs';
import { JsonlCache } from '../common/jsonl-cache';
import { fileCellsIn } from '../detect';
import { readCell, summaryOf } from '../read';
import { age, context, jsonl, tempDir } from '../testing';
import { nemoGym } from './adapter';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const MATH = {
  claude: join(FIXTURES, 'responses_api_agents/claude_code_agent/data/example_math_rollouts'),
  hermes: join(FIXTURES, 'responses_api_agents/hermes_agent/data/example_math_rollouts'),
};
const CIRCLE = join(FIXTURES, 'resources_servers/circle_click/data/example_rollouts');
const rowsOf = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

/** A copy of a real collection under `stem` (its rollouts, inputs and whatever else it has). */
function copyCollection(from: string, stem: string, parts = ['.jsonl', '_materialized_inputs.jsonl']): string {
  for (const part of parts) copyFileSync(`${from}${part}`, join(tmp.path, `${stem}${part}`));
  return join(tmp.path, `${stem}.jsonl`);
}

const readFull = (path: string) => nemoGym.read(path, context(), { detail: true });

describe('nemo-gym on the real math collections (Claude Code and Hermes on the same five tasks)', () => {
  it('counts rollouts, rewards and tokens as the rows say', async () => {
    const path = copyCollection(MATH.claude, 'claude');
    const { cell, labels, units, detail } = await readFull(path);
    const rows = rowsOf(`${MATH.claude}.jsonl`);
    const usage = (key: string) => rows.reduce((sum, r) => sum + ((r.response as { usage: Record<string, number> }).usage[key] as number), 0);
    expect(cell.path).toBe(path);
    expect(cell.name).toBe('claude');
    expect(cell.budget).toEqual({ unit: 'rollouts', used: 5, total: 5 });
    expect(cell.episodes).toEqual({ planned: 5, ended: 5, scored: 5, excluded: 0, successes: 1 });
    expect(cell.success_rate).toBe(0.2);
    expect(cell.reward).toEqual({ mean: 0.2, n: 5 });
    expect(cell.tokens).toEqual({ input: usage('input_tokens'), cached_input: 0, output: usage('output_tokens'), reasoning: 0 });
    expect(cell.tokens.input).toBe(117248);
    expect(cell.state).toBe('finished');
    expect(cell.problems).toEqual([]);
    expect(labels).toEqual({ harness: 'math_with_judge_claude_code_agent', model: 'Qwen/Qwen3-4B-Instruct-2507', condition: null, effort: null });
    expect(units.map((u) => `${u.id}:${u.success}`)).toEqual(['0#0:false', '1#0:false', '2#0:false', '3#0:false', '4#0:true']);
    const tasks = detail?.tables.find((t) => t.id === 'tasks');
    expect(tasks?.rows.map((r) => [r[0], r[1], r[2], r[5]])).toEqual([
      [0, 1, 1, 'fail'],
      [1, 1, 1, 'fail'],
      [2, 1, 1, 'fail'],
      [3, 1, 1, 'fail'],
      [4, 1, 1, 'pass'],
    ]);
    const rollouts = detail?.tables.find((t) => t.id === 'rollouts');
    // The environment's own fields are columns; a long one is shown by its size.
    expect(rollouts?.columns).toEqual(expect.arrayContaining(['turns_used', 'finished_naturally', 'expected_answer', 'extracted_answer', 'library_reward']));
    expect(rollouts?.rows).toHaveLength(5);
  });

  it('pairs the two harnesses on <task>#<rollout>, as a McNemar table worked out from the rows by hand', async () => {
    const [a, b] = await Promise.all([readCell(copyCollection(MATH.claude, 'claude'), 'nemo-gym', context()), readCell(copyCollection(MATH.hermes, 'hermes'), 'nemo-gym', context())]);
    const test = pairUnits(a.units, b.units);
    const won = (rows: Record<string, unknown>[]) => new Map(rows.map((r) => [`${r._ng_task_index}#${r._ng_rollout_index}`, (r.reward as number) >= 1]));
    const [wa, wb] = [won(rowsOf(`${MATH.claude}.jsonl`)), won(rowsOf(`${MATH.hermes}.jsonl`))];
    const cells = { both: 0, only_a: 0, only_b: 0, neither: 0 };
    for (const [unit, sa] of wa) {
      const sb = wb.get(unit) as boolean;
      cells[sa && sb ? 'both' : sa ? 'only_a' : sb ? 'only_b' : 'neither']++;
    }
    expect(test.ok).toBe(true);
    if (!test.ok) return;
    expect({ both: test.table.both, only_a: test.table.only_a, only_b: test.table.only_b, neither: test.table.neither }).toEqual(cells);
    expect(cells).toEqual({ both: 1, only_a: 0, only_b: 0, neither: 4 });
    expect(test.table.p_value).toBe(mcnemarExactP(cells.only_a, cells.only_b));
  });

  it('puts a collection on its environment\'s board (its folder), its agent and model its place; one of two agents a square per agent', async () => {
    const [a, b] = await Promise.all([readCell(copyCollection(MATH.claude, 'claude'), 'nemo-gym', context()), readCell(copyCollection(MATH.hermes, 'hermes'), 'nemo-gym', context())]);
    for (const read of [a, b]) expect([read.cell.board, read.boardName]).toEqual(['on', `nemo-gym ${basename(tmp.path)}`]);
    expect([a.labels.harness, b.labels.harness]).toEqual(['math_with_judge_claude_code_agent', 'math_with_judge_hermes_agent']);
    const both = join(tmp.path, 'both.jsonl');
    writeFileSync(both, readFileSync(`${MATH.claude}.jsonl`, 'utf8') + readFileSync(`${MATH.hermes}.jsonl`, 'utf8'));
    writeFileSync(join(tmp.path, 'both_materialized_inputs.jsonl'), readFileSync(`${MATH.claude}_materialized_inputs.jsonl`, 'utf8') + readFileSync(`${MATH.hermes}_materialized_inputs.jsonl`, 'utf8'));
    const read = await readCell(both, 'nemo-gym', context());
    expect([read.cell.board, read.cell.board_reasons]).toEqual(['on', []]);
    // Each agent's square, as the board lays it out: its own place, figures and units, the same as the collection of that agent alone.
    const squares = boardRows([summaryOf(read, tmp.path)]);
    expect(squares.map((s) => [s.path, s.labels.harness, s.episodes, s.success_rate, s.tokens])).toEqual([
      [`${both}@math_with_judge_claude_code_agent`, 'math_with_judge_claude_code_agent', a.cell.episodes, a.cell.success_rate, a.cell.tokens],
      [`${both}@math_with_judge_hermes_agent`, 'math_with_judge_hermes_agent', b.cell.episodes, b.cell.success_rate, b.cell.tokens],
    ]);
    // The board compares an agent on the collection's units named for it: those its FILE@AGENT side pairs, and the collection of it alone.
    for (const [agent, alone] of [['math_with_judge_claude_code_agent', a], ['math_with_judge_hermes_agent', b]] as const) {
      expect(agentUnits(encodeUnits(read.units), agent)).toBe(encodeUnits(read.agentUnits?.[agent] ?? []));
      expect(encodeUnits(read.agentUnits?.[agent] ?? [])).toBe(encodeUnits(alone.units));
    }
  });

  it('holds two agents in one collection: each its own rate, and FILE@AGENT pairs one of them', async () => {
    const path = join(tmp.path, 'both.jsonl');
    writeFileSync(path, readFileSync(`${MATH.claude}.jsonl`, 'utf8') + readFileSync(`${MATH.hermes}.jsonl`, 'utf8'));
    writeFileSync(join(tmp.path, 'both_materialized_inputs.jsonl'), readFileSync(`${MATH.claude}_materialized_inputs.jsonl`, 'utf8') + readFileSync(`${MATH.hermes}_materialized_inputs.jsonl`, 'utf8'));
    const read = await readCell(path, 'nemo-gym', context(), { detail: true });
    expect(read.cell.budget).toEqual({ unit: 'rollouts', used: 10, total: 10 });
    expect(read.cell.problems).toEqual([]);
    expect(Object.keys(read.agentUnits ?? {})).toEqual(['math_with_judge_claude_code_agent', 'math_with_judge_hermes_agent']);
    expect(read.detail?.tables.find((t) => t.id === 'agents')?.rows).toEqual([
      ['math_with_judge_claude_code_agent', 5, 1, 0.2, 0.2],
      ['math_with_judge_hermes_agent', 5, 1, 0.2, 0.2],
    ]);
    const [claude, hermes] = [read.agentUnits?.math_with_judge_claude_code_agent ?? [], read.agentUnits?.math_with_judge_hermes_agent ?? []];
    expect(claude.map((u) => u.id)).toEqual(['0#0', '1#0', '2#0', '3#0', '4#0']);
    const test = pairUnits(claude, hermes);
    expect(test.ok && [test.table.both, test.table.neither]).toEqual([1, 4]);
    // The whole collection's units name their agent: the same task of two agents is two units.
    expect(read.units.map((u) => u.id).slice(0, 2)).toEqual(['math_with_judge_claude_code_agent/0#0', 'math_with_judge_claude_code_agent/1#0']);
    // An Episodes row's id names its agent, so its note does not again; with one agent, the note names it.
    expect(read.detail?.episodes.map((e) => e.note?.split(' ')[0])).toEqual(Array(10).fill('reward'));
    // Each row's tokens, in and out, as its response's usage says: what the Overview's chart of tokens per unit draws.
    const rows = readFileSync(`${MATH.claude}.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { _ng_task_index: number; response: { usage: { input_tokens: number; output_tokens: number; input_tokens_details?: { cached_tokens?: number } } } });
    const first = rows.find((r) => r._ng_task_index === 0)?.response.usage;
    expect(read.detail?.episodes.find((e) => e.id === 'math_with_judge_claude_code_agent/0#0')?.usage).toEqual({ input: first?.input_tokens, cached: first?.input_tokens_details?.cached_tokens ?? null, output: first?.output_tokens });
    const one = await readCell(`${MATH.claude}.jsonl`, 'nemo-gym', context(), { detail: true });
    expect(one.detail?.episodes[0]?.note).toMatch(/^math_with_judge_claude_code_agent · reward /);
  });
});

describe('nemo-gym aggregate metrics', () => {
  it('takes a row\'s agent from its materialized input, and checks the agent metrics against the rows', async () => {
    const path = copyCollection(CIRCLE, 'circle', ['.jsonl', '_materialized_inputs.jsonl', '_agent_metrics.json']);
    const { cell, detail } = await readFull(path);
    expect(cell.problems).toEqual([]);
    expect(cell.reward).toEqual({ mean: 0.4, n: 5 });
    expect(detail?.tables.find((t) => t.id === 'aggregate')?.rows).toEqual(
      expect.arrayContaining([['circle_click_simple_agent', 'mean/reward', 0.4, 0.4]]),
    );
    writeFileSync(join(tmp.path, 'circle_agent_metrics.json'), readFileSync(join(tmp.path, 'circle_agent_metrics.json'), 'utf8').replace('"mean/reward":0.4', '"mean/reward":0.6'));
    const tampered = await readFull(path);
    expect(tampered.cell.problems).toEqual([expect.objectContaining({ file: 'circle_agent_metrics.json', message: 'mean/reward 0.6 for circle_click_simple_agent, but the 5 rows give 0.4' })]);
    // An aggregate means the collection ended.
    expect(tampered.cell.state).toBe('finished');
  });
});

const row = (task: number, reward: unknown, more: object = {}) => ({ responses_create_params: { input: [{ role: 'user', content: `task ${task}` }] }, response: { output: [], usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 4 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 1 } } }, reward, _ng_task_index: task, _ng_rollout_index: 0, agent_ref: { name: 'pi' }, ...more });
const inputs = (n: number) => jsonl(Array.from({ length: n }, (_, i) => ({ responses_create_params: { input: [] }, agent_ref: { name: 'pi' }, _ng_task_index: i, _ng_rollout_index: 0 })));

describe('nemo-gym on bad and partial input', () => {
  it('names the rollouts of units its materialized inputs do not plan, which take it off its board', async () => {
    const path = join(tmp.path, 'c.jsonl');
    writeFileSync(join(tmp.path, 'c_materialized_inputs.jsonl'), inputs(2));
    writeFileSync(path, jsonl([row(0, 1), row(7, 1), row(1, 0), row(9, 0)]));
    const { integrity } = await readFull(path);
    expect(integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual(['c.jsonl: 2 rollouts (pi/7#0 at line 2, pi/9#0 at line 4) of units c_materialized_inputs.jsonl does not plan']);
  });

  it('leaves a negative token count out of every sum and names its rollout and field, which takes it off its board', async () => {
    const path = join(tmp.path, 'c.jsonl');
    writeFileSync(join(tmp.path, 'c_materialized_inputs.jsonl'), inputs(3));
    const negative = row(1, 1);
    negative.response.usage.output_tokens = -3000;
    writeFileSync(path, jsonl([row(0, 1), negative, row(2, 0)]));
    const { cell, integrity } = await readFull(path);
    // Three rows of 10 input, 4 cached, 3 output and 1 reasoning token, the second's output count -3000.
    expect(cell.tokens).toEqual({ input: 30, cached_input: 12, output: 6, reasoning: 3 });
    expect(integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual([
      'c.jsonl: 1 rollout (pi/1#0 at line 2 (usage.output_tokens -3000)) with a negative token count: an amount cannot be negative; left out of every sum',
    ]);
  });

  it('counts a unit given twice with one outcome once, and says so', async () => {
    const path = join(tmp.path, 'c.jsonl');
    writeFileSync(join(tmp.path, 'c_materialized_inputs.jsonl'), inputs(2));
    writeFileSync(path, jsonl([row(0, 1), row(1, 0), row(0, 1)]));
    const { cell, integrity } = await readFull(path);
    expect(cell.episodes).toEqual({ planned: 2, ended: 2, scored: 2, excluded: 0, successes: 1 });
    expect(integrity?.map((p) => [p.line, p.message])).toEqual([[3, 'repeats rollout 0#0 of pi (first at line 1); not counted']]);
  });

  it('names each bad row by file and line and reads the rest; a half-written last line waits', async () => {
    const path = join(tmp.path, 'c.jsonl');
    writeFileSync(join(tmp.path, 'c_materialized_inputs.jsonl'), inputs(6));
    writeFileSync(path, `${JSON.stringify(row(0, 1))}\nnot json\n${JSON.stringify({ reward: 1, response: {} })}\n${JSON.stringify(row(0, 0))}\n${JSON.stringify(row(1, 'n/a'))}\n${JSON.stringify(row(2, 0.5)).slice(0, 40)}`);
    const { cell, detail, integrity, units } = await readFull(path);
    expect(cell.problems.map((p) => [p.file, p.line, p.message])).toEqual([
      ['c.jsonl', 2, 'not a JSON object; skipped'],
      ['c.jsonl', 3, 'no _ng_task_index; skipped'],
    ]);
    // A unit given twice, and a rollout with no reward to score, break the integrity rules: the cell leaves its board.
    expect(integrity?.map((p) => [p.file, p.line, p.message])).toEqual([
      ['c.jsonl', 4, 'repeats rollout 0#0 of pi (first at line 1) with another outcome (success, then failure): neither is scored'],
      ['c.jsonl', undefined, '1 rollout (pi/1#0 at line 5) without a numeric reward: not scored'],
    ]);
    // 0#0 given as a success, then a failure: neither scored, in every view; 1#0 ended with a reward that is no number: shown as given, not scored.
    expect(cell.budget).toEqual({ unit: 'rollouts', used: 2, total: 6 });
    expect(cell.episodes).toEqual({ planned: 6, ended: 2, scored: 0, excluded: 2, successes: 0 });
    expect(units.map((u) => [u.id, u.status, u.scored])).toEqual([['0#0', 'repeated', false], ['1#0', 'rollout', false]]);
    expect(detail?.episodes.map((e) => [e.id, e.status, e.success])).toEqual([['0#0', 'repeated', null], ['1#0', 'rollout', null]]);
    expect(cell.tokens).toEqual({ input: 20, cached_input: 8, output: 6, reasoning: 2 });
    expect(detail?.tables.find((t) => t.id === 'rollouts')?.rows.map((r) => r[2])).toEqual([1, '"n/a"']);
    appendFileSync(path, `${JSON.stringify(row(2, 0.5)).slice(40)}\n`);
    expect((await readFull(path)).cell.budget.used).toBe(3);
  });

  it("shows the environment's own fields as they are, a long one by its size, whatever shape a small one has", async () => {
    const path = join(tmp.path, 'c.jsonl');
    writeFileSync(path, jsonl([row(0, 1, { sizes: { chars: 5 }, resolved: true, model_patch: 'x'.repeat(1000) }), row(1, 0, { hit: 'a' })]));
    const rollouts = (await readFull(path)).detail?.tables.find((t) => t.id === 'rollouts');
    const column = (name: string) => rollouts?.rows.map((r) => r[(rollouts.columns ?? []).indexOf(name)]);
    expect(rollouts?.columns.slice(-4)).toEqual(['sizes', 'resolved', 'model_patch', 'hit']);
    expect(column('sizes')).toEqual(['{"chars":5}', null]);
    expect(column('resolved')).toEqual([true, null]);
    expect(column('model_patch')).toEqual(['(1,002 chars)', null]);
    expect(column('hit')).toEqual([null, 'a']);
  });

  it('sends the view the latest 10,000 rollouts and tables of the latest 200 rollouts and first 200 tasks of a big collection, saying how many it left out', async () => {
    const path = join(tmp.path, 'c.jsonl');
    writeFileSync(path, jsonl(Array.from({ length: 12_000 }, (_, task) => row(task, task % 2))));
    const read = await readFull(path);
    expect(read.cell.budget.used).toBe(12_000);
    expect(read.detail?.episodes).toHaveLength(10_000);
    expect(read.detail?.episodes[0]?.id).toBe('2000#0');
    expect(read.detail?.episodesLeftOut).toBe(2000);
    const tasks = read.detail?.tables.find((t) => t.id === 'tasks');
    expect(tasks?.rows).toHaveLength(200);
    expect(tasks?.rows.at(-1)?.[0]).toBe(199);
    expect(tasks?.note).toMatch(/^the first 200 of 12,000 tasks; /);
    const rollouts = read.detail?.tables.find((t) => t.id === 'rollouts');
    expect(rollouts?.rows.map((r) => r[0])).toEqual(Array.from({ length: 200 }, (_, i) => `${11_800 + i}#0`));
    expect(rollouts?.note).toBe('the latest 200 of 12,000 rollouts');
    // The paired test and `cellwatch episodes` have them all.
    expect(read.units).toHaveLength(12_000);
  });

  it('without materialized inputs has no total, and is no error', async () => {
    const path = join(tmp.path, 'c.jsonl');
    writeFileSync(path, jsonl([row(0, 1), row(1, 0)]));
    const { cell } = await readFull(path);
    expect(cell.budget).toEqual({ unit: 'rollouts', used: 2, total: null });
    expect(cell.problems).toEqual([]);
    expect(cell.state).toBe('running');
  });

  it('says how many rollouts a stopped collection misses and that a resume would run them', async () => {
    const path = join(tmp.path, 'c.jsonl');
    writeFileSync(join(tmp.path, 'c_materialized_inputs.jsonl'), inputs(10));
    writeFileSync(path, jsonl([0, 1, 2].map((t) => row(t, 1))));
    writeFileSync(join(tmp.path, 'c_failures.jsonl'), jsonl([row(3, undefined, { _ng_failure_class: 'model_error', _ng_attempt_index: 0 }), row(3, undefined, { _ng_failure_class: 'model_error', _ng_failure_terminal: true, _ng_attempt_index: 1 }), row(4, undefined, { _ng_failure_class: 'sandbox_timeout' })]));
    expect((await readFull(path)).cell.state).toBe('running');
    age(tmp.path, ['c.jsonl', 'c_materialized_inputs.jsonl', 'c_failures.jsonl'], 60 * 60_000);
    const { cell, units, detail } = await readFull(path);
    expect(cell.state).toBe('stale');
    // 3 rollouts and one terminal failure are done; the retried failure of task 4 is not.
    expect(cell.budget).toEqual({ unit: 'rollouts', used: 4, total: 10 });
    expect(cell.problems).toEqual([expect.objectContaining({ file: 'c_materialized_inputs.jsonl', message: 'stopped with 6 of 10 rollouts missing; a resume (resume_from_cache) would run them', severity: 'warning' })]);
    expect(units.find((u) => u.id === '3#0')).toEqual({ id: '3#0', status: 'failed: model_error', success: null, scored: false });
    // Its Episodes row: failed, its class beside it.
    expect(detail?.episodes.find((e) => e.id === '3#0')).toMatchObject({ status: 'failed', note: expect.stringMatching(/ · model_error$/), scored: false });
    expect(detail?.tables.find((t) => t.id === 'failures')?.rows).toEqual([
      ['model_error', 2, 1, 1],
      ['sandbox_timeout', 1, 0, null],
    ]);
  });
});

describe('finding collections', () => {
  it('finds each stem of a folder by its rows or its materialized inputs, never by a name alone', async () => {
    writeFileSync(join(tmp.path, 'a.jsonl'), jsonl([row(0, 1)]));
    writeFileSync(join(tmp.path, 'a_failures.jsonl'), '');
    writeFileSync(join(tmp.path, 'b_materialized_inputs.jsonl'), inputs(2));
    writeFileSync(join(tmp.path, 'notes.jsonl'), jsonl([{ ev: 'hello' }]));
    writeFileSync(join(tmp.path, 'rollouts.jsonl'), '');
    const files = new Set(['a.jsonl', 'a_failures.jsonl', 'b_materialized_inputs.jsonl', 'notes.jsonl', 'rollouts.jsonl']);
    expect(await fileCellsIn(localFs, tmp.path, files)).toEqual([
      { dir: join(tmp.path, 'a.jsonl'), format: 'nemo-gym' },
      { dir: join(tmp.path, 'b.jsonl'), format: 'nemo-gym' },
    ]);
    // b's rollouts are not written yet: it is running, none of 2 done.
    const b = await readCell(join(tmp.path, 'b.jsonl'), 'nemo-gym', context());
    expect([b.cell.state, b.cell.budget.used, b.cell.budget.total, b.gone]).toEqual(['running', 0, 2, undefined]);
    expect((await readCell(join(tmp.path, 'gone.jsonl'), 'nemo-gym', context())).gone).toBe(true);
  });
});

describe('nemo-gym reading as a collection grows', () => {
  it('reads an appended row by reading only the appended bytes', async () => {
    const path = join(tmp.path, 'c.jsonl');
    const big = { ...row(0, 1), response: { output: [{ type: 'message', content: [{ type: 'output_text', text: 'x'.repeat(200_000) }] }], usage: { input_tokens: 1, output_tokens: 1 } } };
    writeFileSync(path, jsonl(Array.from({ length: 20 }, (_, i) => ({ ...big, _ng_task_index: i }))));
    let bytes = 0;
    const counting: CellFs = { ...localFs, readBytes: async (p, at, max) => {
      const read = await localFs.readBytes(p, at, max);
      bytes += read?.bytes.length ?? 0;
      return read;
    } };
    const ctx = { ...context(), fs: counting, jsonl: new JsonlCache() };
    expect((await nemoGym.read(path, ctx)).cell.budget.used).toBe(20);
    const appended = `${JSON.stringify({ ...big, _ng_task_index: 20 })}\n`;
    appendFileSync(path, appended);
    bytes = 0;
    expect((await nemoGym.read(path, ctx)).cell.budget.used).toBe(21);
    expect(bytes).toBe(Buffer.byteLength(appended));
    // Rewritten (a new collection under the same name): counted again from its start, not added on.
    writeFileSync(path, jsonl([{ ...big, _ng_task_index: 0, reward: 0 }, { ...big, _ng_task_index: 1, reward: 0 }]));
    expect((await nemoGym.read(path, ctx)).cell).toMatchObject({ budget: { used: 2 }, episodes: { successes: 0 } });
  });
});

describe('nemo-gym rows whose other members hold the keys the reader looks for', () => {
  const row = (task: number, reward: number) => ({
    responses_create_params: { input: [{ role: 'user', content: `task ${task}` }] },
    response: { id: `r${task}`, model: 'm', output: [{ role: 'assistant', content: 'x' }], usage: { input_tokens: 100, output_tokens: 10 } },
    reward,
    // An environment with an LLM judge writes the judge's own usage after the reward (here from the second row on).
    ...(task > 0 ? { judge: { usage: { input_tokens: 16, output_tokens: 3 }, verdict: reward ? 'yes' : 'no' } } : {}),
    _ng_task_index: task,
  });

  it('takes the response its usage, never a judge that comes after the reward', async () => {
    const path = join(tmp.path, 'judged.jsonl');
    writeFileSync(path, jsonl(Array.from({ length: 10 }, (_, task) => row(task, task === 3 ? 1 : 0))));
    const { cell } = await readCell(path, 'nemo-gym', context());
    expect(cell.episodes).toMatchObject({ ended: 10, scored: 10, successes: 1 });
    expect(cell.success_rate).toBe(0.1);
    expect(cell.reward).toEqual({ mean: 0.1, n: 10 });
    expect(cell.tokens).toMatchObject({ input: 1000, output: 100 });
    expect(cell.problems).toEqual([]);
  });
});
