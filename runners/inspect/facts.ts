// What a sample of an Inspect log says, as a reader keeps it: its unit, its scorers' values, how it ended,
// its tokens per model. From a summary (`summaries.json`, `_journal/summaries/<k>.json`) or, where no
// summary holds it, from the sample itself; nothing else of a sample is kept.
import { problem, type Problem } from '../../shared/model';
import { amount } from '../common/integrity';
import { num, obj, str, sumOrNull, timestampMs } from '../common/values';

export interface Usage {
  input: number | null;
  cachedInput: number | null;
  output: number | null;
  reasoning: number | null;
}

export interface SampleFacts {
  /** `<sample id>#<epoch>`. */
  unit: string;
  /** Each scorer's value, as the log gives it. */
  scores: Record<string, unknown>;
  /** The error that ended it, in words; null when none. */
  error: string | null;
  /** The limit it hit (token, time, message, working), in words; null when none. */
  limit: string | null;
  /** Tokens by model; null where the file does not say (an old summary). */
  usage: Record<string, Usage> | null;
  totalTimeS: number | null;
  /** When it completed (epoch ms), where its summary says (`completed`, newer logs). */
  completedAt: number | null;
  /** Where it was read, for problems (`placeOf`): a member, or a list (`summaries.json`) and its index there. */
  from: string;
  index: number | null;
  /** Its negative amounts (tokens, time), each a problem that breaks the integrity rules; absent with none. */
  negative?: Problem[];
}

/** Where a sample's facts were read, in words: `samples/1_epoch_1.json`, `summaries.json [3]`. */
export const placeOf = ({ from, index }: Pick<SampleFacts, 'from' | 'index'>) => (index === null ? from : `${from} [${index}]`);

export const unitOf = (id: unknown, epoch: unknown): string | null => {
  const sample = typeof id === 'string' || typeof id === 'number' ? String(id) : null;
  const n = num(epoch);
  return sample !== null && n !== null ? `${sample}#${n}` : null;
};

/** Each model's tokens of a `model_usage` object; a negative amount is a problem and left out. */
export function usageOf(value: unknown, where: string, problems: Problem[]): Record<string, Usage> {
  const usage: Record<string, Usage> = {};
  for (const [model, counts] of Object.entries(obj(value))) {
    const c = obj(counts);
    const field = (name: string) => amount(c[name], where, `model_usage.${model}.${name}`, problems);
    usage[model] = { input: field('input_tokens'), cachedInput: field('input_tokens_cache_read'), output: field('output_tokens'), reasoning: field('reasoning_tokens') };
  }
  return usage;
}

/** Tokens summed over models (or samples); each count null where none of them says it. */
export function summedUsage(usages: readonly Usage[]): Usage {
  const sum = (pick: (u: Usage) => number | null) => sumOrNull(usages.map(pick));
  return { input: sum((u) => u.input), cachedInput: sum((u) => u.cachedInput), output: sum((u) => u.output), reasoning: sum((u) => u.reasoning) };
}

/**
 * A sample's or a summary's facts, read at `from` (the `index`th of its list); null (with a problem) where it
 * names no unit. The place is kept as its two parts: words for each of 200,000 summaries would double their size.
 */
export function factsOf(value: unknown, from: string, index: number | null, problems: Problem[]): SampleFacts | null {
  const where = placeOf({ from, index });
  const v = obj(value);
  const unit = unitOf(v.id, v.epoch);
  if (unit === null) {
    problems.push(problem(where, 'a sample without an id and an epoch; not counted'));
    return null;
  }
  const scores: Record<string, unknown> = {};
  for (const [scorer, score] of Object.entries(obj(v.scores))) scores[scorer] = obj(score).value;
  const error = v.error === undefined || v.error === null ? null : (str(obj(v.error).message) ?? str(v.error) ?? 'error');
  const limit = v.limit === undefined || v.limit === null ? null : [str(obj(v.limit).type) ?? 'a', 'limit', num(obj(v.limit).limit) === null ? '' : `of ${num(obj(v.limit).limit)}`].join(' ').trim();
  const negative: Problem[] = [];
  const usage = 'model_usage' in v ? usageOf(v.model_usage, where, negative) : null;
  const facts: SampleFacts = { unit, scores, error, limit, usage, totalTimeS: amount(v.total_time, where, 'total_time', negative), completedAt: timestampMs(v.completed), from, index };
  if (negative.length) facts.negative = negative;
  return facts;
}
