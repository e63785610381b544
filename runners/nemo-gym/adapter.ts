import { basename, dirname } from 'node:path';
import { problem, type EpisodeUnit } from '../../shared/model';
import { append } from '../../shared/arrays';
import { parseJson } from '../../shared/json';
import { baseCell, CellReading } from '../common/cell';
import { MAX_JSON_BYTES } from '../common/json';
import type { LineReader } from '../common/jsonl-cache';
import type { FormatAdapter, ReadContext } from '../types';
import { checkAggregate } from './aggregate';
import { Collector, meanOf } from './collection';
import { nemoDetail } from './detail';
import { nemoEventLogs } from './events';
import { collectionFiles, collectionsIn, rolloutsOfSidecar } from './files';
import { summarizeLines, type NemoRow } from './rows';

/**
 * Rows are summarised, never kept whole, so a collection of any size is read (from where it was, as it
 * grows); as bytes (latin1), only the values a summary keeps are decoded.
 */
export const NEMO_ROWS: LineReader<NemoRow> = {
  name: 'nemo-gym',
  parse: summarizeLines,
  maxBytes: Number.MAX_SAFE_INTEGER,
  stepBytes: 8 * 1024 * 1024,
  // A row of a whole SWE conversation can be tens of megabytes.
  maxLineBytes: 256 * 1024 * 1024,
  encoding: 'latin1',
};

async function jsonValue(r: CellReading, name: string): Promise<unknown> {
  const text = await r.text(name, MAX_JSON_BYTES);
  if (text === null) return undefined;
  try {
    return parseJson(text);
  } catch (error) {
    r.problems.push(problem(name, `malformed JSON (${(error as Error).message}); not read`));
    return undefined;
  }
}

/** A collection's rows, as the cell, the paired test, the board and the detail read them. */
export async function readCollection(path: string, ctx: ReadContext) {
  const files = collectionFiles(path);
  const name = (file: string) => basename(file);
  const r = new CellReading(dirname(path), ctx);
  const haveInputs = (await r.stat(name(files.inputs))) !== null;
  const inputs = haveInputs ? await r.jsonl(name(files.inputs), NEMO_ROWS) : null;
  const rows = await r.jsonl(name(files.rollouts), NEMO_ROWS);
  const failures = await r.jsonl(name(files.failures), NEMO_ROWS);
  const names = { rollouts: name(files.rollouts), failures: name(files.failures) };
  const collector = ctx.jsonl?.kept(`nemo-gym:${path}`, () => new Collector(names)) ?? new Collector(names);
  const collection = collector.update(inputs, rows, failures);
  append(r.problems, collection.problems);
  let aggregateFile: string | null = null;
  let aggregate: unknown;
  for (const file of [files.aggregate, files.agentMetrics]) {
    aggregate = await jsonValue(r, name(file));
    if (aggregate !== undefined) {
      aggregateFile = name(file);
      break;
    }
  }
  const checked = aggregateFile ? checkAggregate(aggregate, aggregateFile, collection) : null;
  if (checked) append(r.problems, checked.problems);
  return { r, files, collection, collector, aggregateFile, checked };
}

export const nemoGym: FormatAdapter = {
  format: 'nemo-gym',
  eventLogs: nemoEventLogs,
  capabilities: { fileCell: { cellsIn: collectionsIn, ownerOf: rolloutsOfSidecar } },
  async read(path, ctx, options) {
    const { r, files, collection: c, collector, aggregateFile, checked } = await readCollection(path, ctx);
    const cell = baseCell(path, 'nemo-gym', ctx, files.stem);
    const total = c.planned?.size ?? null;
    cell.budget = { unit: 'rollouts', used: c.done.size, total };
    cell.episodes = { planned: total, ended: c.done.size, scored: c.all.n, excluded: c.done.size - c.all.n, successes: c.all.successes };
    cell.success_rate = c.all.n ? c.all.successes / c.all.n : null;
    cell.reward = { mean: meanOf(c.all), n: c.all.n };
    cell.tokens = { input: c.tokens.input, cached_input: c.tokens.cached, output: c.tokens.output, reasoning: c.tokens.reasoning };

    let missing = 0;
    for (const unit of c.planned ?? []) if (!c.done.has(unit)) missing++;
    const complete = c.planned !== null && missing === 0;
    cell.state = complete || aggregateFile ? 'finished' : r.recent() ? 'running' : 'stale';
    if (missing && cell.state !== 'running') {
      r.problems.push(problem(basename(files.inputs), `stopped with ${missing} of ${total} rollouts missing; a resume (resume_from_cache) would run them`, { severity: 'warning' }));
    }
    cell.problems = r.problems;

    const agents = [...c.byAgent.keys()].filter((a) => a !== '');
    const agentUnits: Record<string, EpisodeUnit[]> = {};
    if (agents.length > 1) for (const agent of agents) agentUnits[agent] = collector.units(agent);
    return {
      ...(options?.detail ? { detail: nemoDetail(c, checked?.lines ?? [], aggregateFile) } : {}),
      cell,
      labels: { harness: agents.join(', ') || null, model: [...c.models].join(', ') || null, condition: null, effort: null },
      changedAt: r.changedAt,
      units: collector.units(),
      ...(agents.length > 1 ? { agentUnits } : {}),
      ...(r.changedAt === null ? { gone: true as const } : {}),
    };
  },
};
