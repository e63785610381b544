// A sample's outcome under one scorer (formats.md section 6), and the header's metrics checked against the
// samples as Inspect reduces them.
import { basename } from 'node:path';
import { cellId } from '../../shared/address';
import { problem, type EpisodeUnit, type Problem } from '../../shared/model';
import type { ReadContext } from '../types';
import { identityName } from '../common/identity-name';
import { num, obj, str } from '../common/values';
import type { SampleFacts } from './facts';
import type { InspectLog } from './log';

export interface Outcome {
  unit: EpisodeUnit;
  /** The scorer's value as a number; null when not scored. */
  value: number | null;
}

/** The scorer a log's outcomes are read by: the eval's first scorer, or its results' first in older logs. */
export function scorerOf(header: Record<string, unknown>): string | null {
  const e = obj(header.eval);
  const first = Array.isArray(e.scorers) ? str(obj(e.scorers[0]).name) : null;
  if (first) return first;
  const scores = obj(header.results).scores;
  return Array.isArray(scores) ? (str(obj(scores[0]).scorer) ?? str(obj(scores[0]).name)) : null;
}

/** What a log's scorers are read from: its header, and its samples' scores (all of them, or the one opened). */
type Scored = { header: Record<string, unknown>; samples: readonly { scores: Record<string, unknown> }[] };

/** Every scorer a log names: its eval's, its results', and each sample's scores', in that order. */
export function scorersOf(log: Scored): string[] {
  const e = obj(log.header.eval);
  const named = [
    ...(Array.isArray(e.scorers) ? e.scorers.map((s) => str(obj(s).name)) : []),
    ...(Array.isArray(obj(log.header.results).scores) ? (obj(log.header.results).scores as unknown[]).map((s) => str(obj(s).scorer) ?? str(obj(s).name)) : []),
  ].filter((name): name is string => name !== null);
  const seen = new Set(named);
  for (const s of log.samples) for (const name of Object.keys(s.scores)) seen.add(name);
  return [...seen];
}

/**
 * The scorer outcomes are read by: the one a user picked for the log at `path` (the reading's `scorers`, by cell
 * id) where the log has it, else its first (a pick the log lacks is a problem saying so).
 */
export function pickedScorer(log: Scored, ctx: Pick<ReadContext, 'host' | 'scorers'>, path: string, problems: Problem[]): string | null {
  const picked = ctx.scorers?.[cellId(ctx.host, path)];
  const first = scorerOf(log.header);
  if (picked === undefined || (first !== null && picked === identityName(first))) return first;
  // A pick names a scorer as the view offers it (identityName): a name of a megabyte is never sent whole.
  const named = scorersOf(log).find((name) => identityName(name) === picked);
  if (named !== undefined) return named;
  problems.push(problem(basename(path), `the scorer picked for its outcomes, ${picked}, is not in this log: its first, ${first ?? 'none'}, is used`, { severity: 'warning' }));
  return first;
}

/** A value as a number: C 1, P 0.5, I and N 0, a number itself, true and false 1 and 0; null otherwise (not scored). */
export function scoreNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === 'C') return 1;
  if (value === 'P') return 0.5;
  if (value === 'I' || value === 'N') return 0;
  return null;
}

/** A sample under `scorer`: failed (not scored) with an error; scored with a value; it succeeds when the value is 1. */
export function outcomeOf(sample: SampleFacts, scorer: string | null): Outcome {
  if (sample.error !== null) return { unit: { id: sample.unit, status: 'error', success: null, scored: false }, value: null };
  const value = scorer === null ? null : scoreNumber(sample.scores[scorer]);
  if (value === null) return { unit: { id: sample.unit, status: sample.limit ?? 'unscored', success: null, scored: false }, value: null };
  return { unit: { id: sample.unit, status: sample.limit ?? 'scored', success: value === 1, scored: true }, value };
}

/** The sample id of a unit (`<id>#<epoch>`). */
const sampleOf = (unit: string) => unit.slice(0, unit.lastIndexOf('#'));

/** The mean as Inspect reduces it: each sample's epochs averaged first, then the mean over samples. */
export function reducedMean(outcomes: Iterable<Outcome>): number | null {
  const bySample = new Map<string, number[]>();
  for (const o of outcomes) if (o.unit.scored && o.value !== null) bySample.set(sampleOf(o.unit.id), [...(bySample.get(sampleOf(o.unit.id)) ?? []), o.value]);
  if (!bySample.size) return null;
  const means = [...bySample.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length);
  return means.reduce((a, b) => a + b, 0) / means.length;
}

/** What the header's results say of a scorer: its `accuracy`, else its `mean`; null when they say neither. */
export function statedMetric(header: Record<string, unknown>, scorer: string): { metric: 'accuracy' | 'mean'; value: number } | null {
  const scores = obj(header.results).scores;
  const entry = Array.isArray(scores) ? scores.map(obj).find((s) => str(s.scorer) === scorer || str(s.name) === scorer) : undefined;
  const metrics = obj(entry?.metrics);
  for (const metric of ['accuracy', 'mean'] as const) {
    const value = num(obj(metrics[metric]).value);
    if (value !== null) return { metric, value };
  }
  return null;
}

/** The header's `accuracy` (or `mean`) of the scorer against what the samples give: a mismatch is a problem. */
export function headerCheck(log: InspectLog, scorer: string, outcomes: Map<string, Outcome>, file: string): Problem[] {
  if (!log.ended) return [];
  const stated = statedMetric(log.header, scorer);
  const given = reducedMean(outcomes.values());
  if (stated === null || given === null || Math.abs(stated.value - given) < 1e-6) return [];
  const { metric, value: said } = stated;
  return [problem(file, `its header says ${scorer} ${metric} ${said}, but its samples give ${given.toFixed(4)} (each sample's epochs averaged, then the mean)`)];
}
