// The collector's count against a plain one written from formats.md section 5: units kept as text keys
// in a set per fact, every file counted whole at once. The collector keeps each unit's facts as one
// number and counts appended rows only; both must give the same collection for any rows, fed in any steps.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Collector, type Collection } from './collection';
import type { NemoRow, PlannedUnit, RowBlock, RowUsage } from './row-block';
import { blockOf, rowsIn } from './testing';

const files = { rollouts: 'c.jsonl', failures: 'c_failures.jsonl' };

/** What a collection says, as a user sees it: its figures, its rollouts and failed units, its problems. */
function shown(c: Collection) {
  const rewards = c.rollouts.rewardsOf(new Set(c.tasks.map((t) => t.task)));
  return {
    planned: c.planned,
    done: c.done,
    missing: c.missing,
    rollouts: Array.from({ length: c.rollouts.length }, (_, k) => c.rollouts.row(k)).map((r) => `${r.line}:${r.agent}`),
    failed: [...c.failedUnits.values()].map((r) => `${r.line}:${r.agent}:${r.failureClass}`),
    all: c.all,
    byAgent: [...c.byAgent],
    agentPlans: [...c.agentPlans].sort(),
    agentModels: [...c.agentModels].map(([agent, models]) => [agent, [...models].sort()]).sort(),
    agentTokens: [...c.agentTokens].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    tasks: c.tasks.map((t) => ({ task: t.task, planned: t.planned, rewards: rewards.get(t.task) ?? [], n: t.n, successes: t.successes, sum: t.sum })),
    failures: c.failures,
    tokens: c.tokens,
    models: [...c.models].sort(),
    problems: [...c.problems, ...c.integrity].map((p) => `${p.file}:${p.line} ${p.message}`),
    unscored: c.unscored,
    unplanned: c.unplanned,
    negative: c.negative,
    conflicted: [...c.conflicted].sort((a, b) => a - b),
  };
}

/** The count as the format states it, each file whole, nothing kept from an earlier count. */
function plainCount(inputs: PlannedUnit[] | null, rows: NemoRow[], failures: NemoRow[]): ReturnType<typeof shown> {
  const unit = (r: { task: number | null; repeat: number | null }) => `${r.task}#${r.repeat ?? 0}`;
  const key = (agent: string | null, r: { task: number | null; repeat: number | null }) => `${agent}\u0000${unit(r)}`;
  const plannedAgent = new Map<string, string | null>();
  const planned = new Set<string>();
  const taskPlanned = new Map<number, number>();
  for (const input of inputs ?? []) {
    if (!plannedAgent.has(unit(input))) plannedAgent.set(unit(input), input.agent);
    if (planned.has(key(input.agent, input))) continue;
    planned.add(key(input.agent, input));
    taskPlanned.set(input.task as number, (taskPlanned.get(input.task as number) ?? 0) + 1);
  }
  const agentOf = (r: NemoRow) => r.agent ?? plannedAgent.get(unit(r)) ?? null;
  const scored = (r: NemoRow) => (typeof r.reward === 'number' && Number.isFinite(r.reward) ? r.reward : null);
  const outcome = (r: NemoRow) => (scored(r) === null ? 'no reward' : (scored(r) as number) >= 1 ? 'success' : 'failure');
  const first = new Map<string, NemoRow>();
  const rollouts: NemoRow[] = [];
  const problems: string[] = [];
  // Units given again with another outcome than their first's: neither is scored.
  const conflicted = new Set<string>();
  for (const raw of rows) {
    const row = { ...raw, agent: agentOf(raw) };
    const k = key(row.agent, row);
    const was = first.get(k);
    if (was === undefined) {
      first.set(k, row);
      rollouts.push(row);
      continue;
    }
    const again = `c.jsonl:${row.line} repeats rollout ${unit(row)}${row.agent ? ` of ${row.agent}` : ''} (first at line ${was.line})`;
    if (conflicted.has(k) || outcome(was) === outcome(row)) problems.push(`${again}; not counted`);
    else {
      conflicted.add(k);
      problems.push(`${again} with another outcome (${outcome(was)}, then ${outcome(row)}): neither is scored`);
    }
  }
  const counted = rollouts.filter((r) => !conflicted.has(key(r.agent, r)));
  const failed = new Map<string, NemoRow>();
  const classes = new Map<string, { name: string; rows: number; terminal: number; attempts: number | null }>();
  for (const row of failures) {
    const name = row.failureClass ?? 'unclassified';
    const entry = classes.get(name) ?? { name, rows: 0, terminal: 0, attempts: null };
    classes.set(name, { ...entry, rows: entry.rows + 1, terminal: entry.terminal + (row.terminal ? 1 : 0), attempts: row.attempt === null ? entry.attempts : Math.max(entry.attempts ?? 0, row.attempt) });
    if (row.terminal && !first.has(key(agentOf(row), row))) failed.set(key(agentOf(row), row), { ...row, agent: agentOf(row), failureClass: name });
  }
  const done = new Set([...first.keys(), ...failed.keys()]);
  const named = (r: NemoRow) => `${r.agent ? `${r.agent}/` : ''}${unit(r)} at line ${r.line}`;
  const noted = (of: NemoRow[]) => ({ rows: of.length, first: of.slice(0, 3).map(named) });
  const negativeCounts = (of: NemoRow[]) => {
    const fields: [keyof RowUsage, string][] = [['input', 'usage.input_tokens'], ['cached', 'usage.input_tokens_details.cached_tokens'], ['output', 'usage.output_tokens'], ['reasoning', 'usage.output_tokens_details.reasoning_tokens']];
    const firstNegative = (r: NemoRow) => fields.find(([field]) => (r.usage?.[field] ?? 0) < 0);
    const negative = of.filter(firstNegative);
    return { rows: negative.length, first: negative.slice(0, 3).map((r) => { const [field, name] = firstNegative(r) as [keyof RowUsage, string]; return `${named(r)} (${name} ${r.usage?.[field]})`; }) };
  };
  const stats = (of: NemoRow[]) => {
    const rewards = of.map(scored).filter((r): r is number => r !== null);
    return { n: rewards.length, successes: rewards.filter((r) => r >= 1).length, sum: rewards.reduce((a, b) => a + b, 0) };
  };
  const agents = [...new Set(rollouts.map((r) => r.agent ?? ''))];
  const tasks = [...new Set([...taskPlanned.keys(), ...rollouts.map((r) => r.task as number)])].sort((a, b) => a - b);
  const tokenSum = (field: keyof RowUsage, of = rollouts) => {
    const given = of.map((r) => r.usage?.[field] ?? null).filter((v): v is number => v !== null && v >= 0);
    return given.length ? given.reduce((a, b) => a + b, 0) : null;
  };
  const tokensOf = (of: NemoRow[]) => ({ input: tokenSum('input', of), cached: tokenSum('cached', of), output: tokenSum('output', of), reasoning: tokenSum('reasoning', of) });
  return {
    planned: inputs === null || planned.size === 0 ? null : planned.size,
    done: done.size,
    missing: [...planned].filter((k) => !done.has(k)).length,
    rollouts: rollouts.map((r) => `${r.line}:${r.agent}`),
    failed: [...failed.values()].map((r) => `${r.line}:${r.agent}:${r.failureClass}`),
    all: stats(counted),
    byAgent: agents.map((a) => [a, stats(counted.filter((r) => (r.agent ?? '') === a))]),
    agentPlans: [...new Set([...planned].map((k) => k.split('\u0000')[0] as string))].map((a) => [a === 'null' ? '' : a, [...planned].filter((k) => k.split('\u0000')[0] === a).length]).sort(),
    agentModels: agents.flatMap((a) => {
      const models = [...new Set(rollouts.filter((r) => (r.agent ?? '') === a && r.model).map((r) => r.model as string))].sort();
      return models.length ? [[a, models]] : [];
    }).sort(),
    tasks: tasks.map((task) => {
      const of = rollouts.filter((r) => r.task === task);
      return { task, planned: taskPlanned.get(task) ?? null, rewards: of.map((r) => r.reward), ...stats(of.filter((r) => counted.includes(r))) };
    }),
    failures: [...classes.values()].sort((a, b) => b.rows - a.rows || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    tokens: tokensOf(rollouts),
    agentTokens: agents.map((a) => [a, tokensOf(rollouts.filter((r) => (r.agent ?? '') === a))]).sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0)),
    models: [...new Set(rollouts.map((r) => r.model).filter((m): m is string => Boolean(m)))].sort(),
    problems,
    unscored: noted(rollouts.filter((r) => scored(r) === null)),
    unplanned: noted(inputs !== null && planned.size > 0 ? rollouts.filter((r) => !planned.has(key(r.agent, r))) : []),
    negative: negativeCounts(rollouts),
    conflicted: rollouts.flatMap((r, k) => (conflicted.has(key(r.agent, r)) ? [k] : [])),
  } as ReturnType<typeof shown>;
}

// Few agents, tasks and repeats, so units repeat and collide; tasks and repeats past what fits in a number key.
const agent = fc.constantFrom(null, 'claude', 'hermes', 'codex');
const task = fc.oneof({ weight: 8, arbitrary: fc.nat(12) }, { weight: 1, arbitrary: fc.constantFrom(-1, 2 ** 31, 2 ** 40, 4096) });
const repeat = fc.oneof({ weight: 8, arbitrary: fc.nat(3) }, { weight: 1, arbitrary: fc.constantFrom(null, -1, 4096, 4095) });
// Now and then a negative count, which no sum holds.
const count = fc.option(fc.oneof({ weight: 9, arbitrary: fc.nat(50_000) }, { weight: 1, arbitrary: fc.constantFrom(-1, -50_000) }), { freq: 3 });
const usage = fc.option(fc.record({ input: count, cached: count, output: count, reasoning: count }), { freq: 4 });
const reward = fc.oneof(fc.constantFrom(0, 1, 0.5, 2, -1, true, 'n/a', null, undefined), fc.double({ noNaN: true, min: -2, max: 2 }));
const row = fc.record({
  task,
  repeat,
  agent,
  reward,
  usage,
  model: fc.constantFrom(null, 'qwen', 'gpt'),
  failureClass: fc.constantFrom(null, 'timeout', 'crash'),
  terminal: fc.boolean(),
  attempt: fc.option(fc.nat(3)),
});
const input = fc.record({ task, repeat, agent });

const numbered = <T extends object>(items: T[]) => items.map((item, i) => ({ ...item, line: i + 1 }));
const asRow = (r: Omit<NemoRow, 'line' | 'offset' | 'fields' | 'largeFields' | 'observed'> & { line: number }) => ({ ...r, fields: {} });

/** The rows cut into blocks at each of `cuts` (as reads of a growing file cut them), each read back as the reader reads it. */
function blocksAt(rows: ReturnType<typeof asRow>[], cuts: number[]): RowBlock[] {
  const bounds = [...new Set([0, ...cuts.filter((cut) => cut < rows.length), rows.length])].sort((a, b) => a - b);
  return bounds.slice(1).flatMap((end, i) => blockOf(rows.slice(bounds[i], end)));
}

/** The blocks that hold the first `count` rows (`count` one of the cuts). */
const upTo = (blocks: RowBlock[], count: number) => {
  let rows = 0;
  let taken = 0;
  while (taken < blocks.length && rows + (blocks[taken] as RowBlock).length <= count) rows += (blocks[taken++] as RowBlock).length;
  return blocks.slice(0, taken);
};

describe('the collector, against a plain count of the same files', () => {
  it('gives the plain count for any inputs, rollouts and failures, counted at once, as the files grow in any steps, or as a long read joins its parts', () => {
    fc.assert(
      fc.property(
        fc.option(fc.array(input, { maxLength: 40 }), { freq: 3 }),
        fc.array(row, { maxLength: 60 }),
        fc.array(row, { maxLength: 20 }),
        fc.array(fc.tuple(fc.nat(60), fc.nat(20)), { maxLength: 5 }),
        fc.array(fc.nat(60), { maxLength: 4 }),
        (inputList, rowList, failureList, steps, moreCuts) => {
          const inputs = inputList && numbered(inputList);
          // Cut where the steps read, and elsewhere: a block of many rows, as a read of a long file makes.
          const rows = blocksAt(numbered(rowList).map(asRow), [...steps.map(([r]) => r), ...moreCuts]);
          const failures = blocksAt(numbered(failureList).map(asRow), steps.map(([, f]) => f));
          const want = plainCount(inputs, rowsIn(rows), rowsIn(failures));
          expect(shown(new Collector(files).update(inputs, rows, failures))).toEqual(want);
          // The same files read as they grew: inputs first (as a collection writes them), then rollouts and failures in steps.
          const growing = new Collector(files);
          for (const [r, f] of [...steps].sort((a, b) => a[0] - b[0] || a[1] - b[1])) growing.update(inputs, upTo(rows, r), upTo(failures, f));
          expect(shown(growing.update(inputs, rows, failures))).toEqual(want);
          // The same read on as a long read joins its parts: the rollouts counted so far at each cut, then the rest and the failures.
          const joining = new Collector(files);
          const sorted = [...steps].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          const [grown, grownFailures] = sorted[0] ?? [0, 0];
          joining.update(inputs, upTo(rows, grown), upTo(failures, grownFailures));
          for (const cut of [...moreCuts, ...steps.map(([r]) => r)].filter((c) => c >= grown).sort((a, b) => a - b)) joining.countSoFar(inputs, upTo(rows, cut));
          expect(shown(joining.update(inputs, rows, failures))).toEqual(want);
        },
      ),
      { seed: 48, numRuns: 2000 },
    );
  });
});
