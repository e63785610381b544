// Reading a collection's files: its rows summarised, counted on from where the last read left them.
import { basename, dirname } from 'node:path';
import { problem } from '../../shared/model';
import { parseJson } from '../../shared/json';
import { append } from '../../shared/arrays';
import { CellReading } from '../common/cell';
import { MAX_JSON_BYTES } from '../common/json';
import type { LinePacker, LineReader } from '../common/line-steps';
import type { ReadContext } from '../types';
import { checkAggregate } from './aggregate';
import { Collector } from './collection';
import { collectionFiles } from './files';
import { plannedLines } from './planned';
import { RowBlock, type PackedBlock, type PlannedUnit } from './row-block';
import { summarizeLines } from './rows';

const SIZES = {
  maxBytes: Number.MAX_SAFE_INTEGER,
  stepBytes: 8 * 1024 * 1024,
  // A row of a whole SWE conversation can be tens of megabytes.
  maxLineBytes: 256 * 1024 * 1024,
};

/** Blocks cross threads as their typed arrays, moved, not copied: nothing to build again on arrival. */
const BLOCKS: LinePacker<RowBlock> = {
  pack(blocks) {
    const packs = blocks.map((block) => block.pack());
    return { packed: packs.map((p) => p.packed), transfer: packs.flatMap((p) => p.transfer) };
  },
  unpack: (packed, shift) => (packed as PackedBlock[]).map((block) => RowBlock.unpack(block, shift)),
};

/**
 * Rows are summarised into blocks, never kept whole, so a collection of any size is read (from where it
 * was, as it grows); as bytes, only the values a summary keeps are decoded. A long local read is shared
 * out among threads.
 */
export const NEMO_ROWS: LineReader<RowBlock> = { name: 'nemo-gym', parse: summarizeLines, packer: BLOCKS, ...SIZES };

/**
 * The materialized inputs, as the units they plan: on one thread, as split among threads (each part's
 * units made again where they arrive) the 96 MB of the bench's took as long (0.35-0.45 s).
 */
const NEMO_INPUTS: LineReader<PlannedUnit> = { name: 'nemo-gym-inputs', parse: plannedLines, ...SIZES };

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
  const names = { rollouts: name(files.rollouts), failures: name(files.failures) };
  const collector = ctx.jsonl?.kept(`nemo-gym:${path}`, () => new Collector(names)) ?? new Collector(names);
  let inputs = null as readonly PlannedUnit[] | null;
  // The inputs are read while the threads a long read of the rollouts is split among start on it, and the
  // rollouts counted as their parts join, while those threads read on.
  const rows = await r.jsonl(name(files.rollouts), NEMO_ROWS, {
    meanwhile: async () => void (inputs = haveInputs ? await r.jsonl(name(files.inputs), NEMO_INPUTS) : null),
    onRecords: (sofar) => collector.countSoFar(inputs, sofar),
  });
  const failures = await r.jsonl(name(files.failures), NEMO_ROWS);
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

