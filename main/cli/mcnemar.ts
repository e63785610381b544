import { parseArgs } from 'node:util';
import { formatP, verdict } from '../../shared/mcnemar';
import { readSideAt, withPlaces } from './places';
import { compareSides, type Side } from '../compare/paired';
import { outJson, UsageError, type Io } from './io';
import { printable } from './printable';
import { wrapped } from './help-text';
import { CELL_SIDES } from './pairing';
import { percent, table } from './table';

export const MCNEMAR_HELP = `cellwatch mcnemar [--json] CELL_A CELL_B

${wrapped(`The exact paired McNemar test over the units (episodes, seeds, rollouts, samples, trials) both cells scored. A side inside a cell is named ${CELL_SIDES}. Exits 2, listing the ids on each side alone, when the cells did not run the same units, and when A and B are the same run.`)}
  --json   {"a", "b", "pairs", "both", "only_a", "only_b", "neither", "statistic", "p_value", "excluded"}`;

export async function mcnemar(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, 'accept-new-host-key': { type: 'boolean', default: false } },
  });
  if (positionals.length !== 2) throw new UsageError(`name two cells\n\n${MCNEMAR_HELP}`);
  // Both sides over one connection per host, even when both cells live on the same one.
  const result = await withPlaces({ acceptNewHostKey: values['accept-new-host-key'] }, async (places) => {
    const [a, b] = await Promise.all(positionals.map((address) => readSideAt(places, address)));
    return compareSides(a as Side, b as Side);
  });
  const a = result.a.id;
  const b = result.b.id;
  const { unit } = result.a;
  // As the window says it: a run paired with itself agrees on every episode, which tests nothing.
  if (a === b) {
    const message = `${result.a.name} is both A and B: every ${unit} agrees with itself, so there is nothing to test`;
    if (values.json) outJson(io, { a, b, error: message }, 2);
    io.err(`cellwatch mcnemar: ${message}. Name another run for B.`);
    return 2;
  }
  if (!result.ok) {
    const message = `${result.a.name} and ${result.b.name} did not run the same ${unit}s; refusing to pair them`;
    if (values.json) outJson(io, { a, b, error: message, only_a: result.only_a, only_b: result.only_b }, 2);
    io.err(`cellwatch mcnemar: ${message}.\n  only in A (${result.only_a.length}): ${result.only_a.join(' ') || '-'}\n  only in B (${result.only_b.length}): ${result.only_b.join(' ') || '-'}`);
    return 2;
  }
  const t = result.table;
  if (values.json) {
    const { pairs, both, only_a, only_b, neither, statistic, p_value, excluded } = t;
    outJson(io, { a, b, pairs, both, only_a, only_b, neither, statistic, p_value, excluded }, 2);
    return 0;
  }
  io.out(`A  ${printable(result.a.name)}  ${percent(t.success_rate_a)} of ${t.pairs} paired`);
  io.out(`B  ${printable(result.b.name)}  ${percent(t.success_rate_b)} of ${t.pairs} paired\n`);
  io.out(table(['', 'B succeeds', 'B fails'], [['A succeeds', String(t.both), String(t.only_a)], ['A fails', String(t.only_b), String(t.neither)]], [false, true, true]));
  io.out(`\nstatistic min(b, c) = ${t.statistic}, exact two-sided p = ${formatP(t.p_value)}`);
  io.out(verdict(t, 'A', 'B', unit));
  if (t.excluded.length) io.out(`excluded (${t.excluded.length}): ${t.excluded.map((e) => `${e.id} (${e.a ?? e.b})`).join(', ')}`);
  if (t.undecided.length) io.out(`undecided while running (${t.undecided.length}): ${t.undecided.join(' ')}`);
  return 0;
}
