import { problem, type EpisodeUnit, type Problem } from '../../shared/model';
import { counted } from '../../shared/counts';
import { judgedUnits, statedRate } from '../common/integrity';
import { CellReading } from '../common/cell';
import type { JsonObject } from '../common/json';
import { arr, num, obj } from '../common/values';
import type { ReadContext } from '../types';
import { EVAL_SUMMARY_JSON } from './files';
import { append } from '../../shared/arrays';

export const VERSION_FILE = /^(v\d{3})\.py$/;

export interface Evaluation {
  version: string;
  summary: JsonObject | null;
  progressLines: number;
  changedAt: number | null;
  /** Its summary's seeds, each once, what breaks the integrity rules in it, and its score: read once. */
  scored: Scored;
}

interface Scored {
  units: EpisodeUnit[];
  problems: Problem[];
  /** Successes of the scored seeds (a rejected policy scores 0); null with none. */
  rate: number | null;
}

/** A policy version's file, relative to the cell. */
export const policyFile = (version: string) => `policies/${version}.py`;

/** The policy versions, oldest first: `policies/vNNN.py`. */
export async function readVersions(r: CellReading): Promise<string[]> {
  return (await r.list('policies'))
    .map((e) => (e.kind === 'file' ? VERSION_FILE.exec(e.name)?.[1] : undefined))
    .filter((v): v is string => v !== undefined)
    .sort();
}

/** A version's evaluation: its summary when it has one, and how far its progress log got. */
export async function readEvaluation(version: string, r: CellReading): Promise<Evaluation> {
  const own = new CellReading(r.dir, r.ctx);
  const summary = await own.json(summaryFile(version), EVAL_SUMMARY_JSON);
  const progress = await own.jsonl(`eval/${version}/progress.jsonl`);
  append(r.problems, own.problems);
  if (own.changedAt !== null) await r.stat(`eval/${version}`);
  return { version, summary, progressLines: progress.length, changedAt: own.changedAt, scored: summary ? evaluationUnits(summary, version) : { units: [], problems: [], rate: null } };
}

/** A version's evaluation summary, relative to the cell. */
export const summaryFile = (version: string) => `eval/${version}/summary.json`;

const seedOf = (entry: unknown) => {
  const seed = num(obj(entry).seed);
  return seed !== null && Number.isInteger(seed) ? seed : null;
};

/**
 * The evaluation episodes of a version, as McNemar units, each seed once (a seed given twice is a problem);
 * a rejected policy scores 0 on every one. The problems say where the summary breaks the integrity rules:
 * an entry with no seed, a success that is not true or false (left unscored), a stated n_episodes or
 * success_rate its units do not give; the rate is the units' own.
 */
export function evaluationUnits(summary: JsonObject, version: string): Scored {
  const rejected = arr(summary.rejected).length > 0;
  const file = summaryFile(version);
  const entries = arr(summary.episodes);
  const where = { file, placeOf: (i: number) => `episodes[${i}]`, noun: 'seed', id: 'a whole-number seed' };
  const { units, problems } = judgedUnits(entries, seedOf, where, rejected ? { status: 'rejected', success: false, scored: true } : undefined);
  // A rejected policy runs no episode: it scores 0 on every one its n_episodes plans.
  const stated = num(summary.n_episodes);
  if (!rejected && stated !== null && stated !== entries.length) problems.push(problem(file, `n_episodes ${stated}, but it lists ${counted(entries.length, 'episode')}`));
  const scored = units.filter((u) => u.scored);
  const rate = rejected ? 0 : scored.length ? scored.filter((u) => u.success).length / scored.length : null;
  return { units, problems: rejected ? problems : [...problems, ...statedRate(summary.success_rate, units, file, 'success_rate')], rate };
}

/** The evaluation units of one policy version, or null when it has no evaluation summary yet. */
export async function versionUnits(dir: string, version: string, ctx: ReadContext): Promise<EpisodeUnit[] | null> {
  const summary = await new CellReading(dir, ctx).json(summaryFile(version), EVAL_SUMMARY_JSON);
  return summary ? evaluationUnits(summary, version).units : null;
}
