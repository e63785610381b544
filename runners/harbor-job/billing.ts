import { append } from '../../shared/arrays';
import { parseJson } from '../../shared/json';
import { type Problem, problem } from '../../shared/model';
import type { CellReading } from '../common/cell';
import { isObject } from '../common/json';
import { counted } from '../../shared/counts';
import { amount } from '../common/integrity';

/** Claude Code over OpenRouter (the lab's adapter, seed 001) keeps each generation's charge here, in a trial. */
export const OPENROUTER_COSTS = 'agent/openrouter_costs.json';
const MAX_BYTES = 8 * 1024 * 1024;

/**
 * What OpenRouter said it charged for one generation: `total_cost` as its generation endpoint names it,
 * or `cost` (also under `usage`) as a response's usage does; USD (OpenRouter's credits are dollars).
 */
function charge(generation: unknown): { value: number; field: string } | null {
  if (!isObject(generation)) return null;
  const usage = isObject(generation.usage) ? generation.usage : {};
  const fields: [unknown, string][] = [[generation.total_cost, 'total_cost'], [generation.cost, 'cost'], [usage.cost, 'usage.cost']];
  for (const [value, field] of fields) if (typeof value === 'number' && Number.isFinite(value)) return { value, field };
  return null;
}

/**
 * The charges in one trial's file: a JSON array of generations, or an object holding them as `generations`.
 * A negative charge breaks the integrity rules (`integrity`), left out of the sum.
 */
export function openRouterBill(text: string, file: string): { usd: number | null; problems: Problem[]; integrity: Problem[] } {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    return { usd: null, problems: [problem(file, `${file} is not valid JSON (${(error as Error).message}); its charges are not counted`)], integrity: [] };
  }
  const generations = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.generations) ? value.generations : null;
  if (!generations) return { usd: null, problems: [problem(file, `${file} holds no list of generations; its charges are not counted`)], integrity: [] };
  let usd = 0;
  const uncharged: number[] = [];
  const problems: Problem[] = [];
  const integrity: Problem[] = [];
  generations.forEach((generation, index) => {
    const found = charge(generation);
    if (found === null) uncharged.push(index);
    else usd += amount(found.value, file, `[${index}].${found.field}`, integrity) ?? 0;
  });
  if (uncharged.length) problems.push(problem(file, `${file}: ${counted(uncharged.length, 'generation')} without a charge (first at index ${uncharged[0]}); counted as nothing`));
  return { usd, problems, integrity };
}

/** The sum of what OpenRouter charged over the trials that kept their charges; null when none did. */
export async function openRouterBilled(r: CellReading, trialDirs: string[], integrity: Problem[]): Promise<number | null> {
  let total: number | null = null;
  for (const dir of trialDirs) {
    const file = `${dir}/${OPENROUTER_COSTS}`;
    const text = await r.text(file, MAX_BYTES);
    if (text === null) continue;
    const bill = openRouterBill(text, file);
    append(r.problems, bill.problems);
    append(integrity, bill.integrity);
    if (bill.usd !== null) total = (total ?? 0) + bill.usd;
  }
  return total;
}
