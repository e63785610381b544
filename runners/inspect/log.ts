// An Inspect log read as a cell needs it: its header (the start record while it runs, header.json once
// written) and each sample's facts. A `.eval` is read from its central directory, only the members not
// read before (Inspect copies a whole new zip over the log every few samples); a `.json` log whole.
import { basename } from 'node:path';
import { problem, type Problem } from '../../shared/model';
import { parseJson } from '../../shared/json';
import { append } from '../../shared/arrays';
import { obj } from '../common/values';
import { ElementStream } from '../common/json-bytes';
import type { ReadContext } from '../types';
import { factsOf, placeOf, type SampleFacts } from './facts';
import { memberChunks, readMember, ZipBroken, zipDirectory, type ZipMember } from './zip';

/** The most of a member or a JSON log parsed at once; a larger one is a problem, not read. */
export const MAX_MEMBER_BYTES = 512 << 20;
const SAMPLE = /^samples\/(.+)_epoch_(\d+)\.json$/;
const JOURNAL_SUMMARY = /^_journal\/summaries\/(\d+)\.json$/;

export interface InspectLog {
  /** The header: header.json once written, else the start record; empty when neither is read. */
  header: Record<string, unknown>;
  /** header.json (or a JSON log's end) is there: the eval ended, or says it runs (`started`). */
  ended: boolean;
  samples: SampleFacts[];
  /** Units given twice (two summaries, two members): their places, for the one-outcome rule. */
  repeats: Problem[];
  problems: Problem[];
  /** The file is being replaced now (no whole zip): what is shown is its last good reading. */
  beingWritten: boolean;
  changedAt: number | null;
}

/** What was read of a `.eval` before: what each member gave (never the member itself), by its name and CRC, and the last good reading. */
export class EvalMemory {
  readonly parsed = new Map<string, { crc: number; value: unknown; problems: Problem[] }>();
  last: InspectLog | null = null;
  stamp = '';
}

function parseMember(bytes: Buffer, name: string): { value: unknown; problems: Problem[] } {
  try {
    return { value: parseJson(bytes.toString('utf8')), problems: [] };
  } catch (error) {
    return { value: undefined, problems: [problem(name, `not JSON (${(error as Error).message}); not read`)] };
  }
}

/** What a member gives (`derive` reads it), from memory while its CRC is the same. */
async function member<T>(m: ZipMember, memory: EvalMemory, derive: (problems: Problem[]) => Promise<T | undefined>): Promise<{ value: T | undefined; problems: Problem[] }> {
  const known = memory.parsed.get(m.name);
  if (known && known.crc === m.crc) return known as { value: T | undefined; problems: Problem[] };
  const problems: Problem[] = [];
  const read = { value: await derive(problems), problems };
  memory.parsed.set(m.name, { crc: m.crc, ...read });
  return read;
}

/** A member read whole, its JSON given to `then`; one too large, or not JSON, is a problem naming it. */
const asJson =
  <T>(path: string, m: ZipMember, ctx: ReadContext, then: (value: unknown, problems: Problem[]) => T) =>
  async (problems: Problem[]): Promise<T | undefined> => {
    if (m.size > MAX_MEMBER_BYTES) return void problems.push(problem(m.name, `${m.size} bytes: too large to read (over ${MAX_MEMBER_BYTES})`));
    const parsed = parseMember(await readMember(ctx.fs, path, m, MAX_MEMBER_BYTES), m.name);
    append(problems, parsed.problems);
    return parsed.value === undefined ? undefined : then(parsed.value, problems);
  };

/**
 * A summaries member's facts, each summary parsed alone as the member inflates (a list of 200,000 is never
 * held whole, as bytes or as values); one that is not JSON is a problem naming its place.
 */
async function summaryFacts(chunks: AsyncIterable<Buffer>, where: string, problems: Problem[]): Promise<SampleFacts[]> {
  const list = new ElementStream();
  const facts: SampleFacts[] = [];
  const own: Problem[] = [];
  let index = 0;
  for await (const chunk of chunks) {
    for (const element of list.push(chunk)) {
      const at = index++;
      try {
        const fact = factsOf(parseJson(element.toString('utf8')), where, at, own);
        if (fact) facts.push(fact);
      } catch (error) {
        own.push(problem(placeOf({ from: where, index: at }), `not JSON (${(error as Error).message}); not read`));
      }
    }
  }
  if (!list.end()) {
    problems.push(problem(where, 'not a list of sample summaries; not read'));
    return [];
  }
  append(problems, own);
  return facts;
}

/** The facts with each unit once (the first), and a problem naming each unit given again and its places. */
function onceEach(facts: SampleFacts[], file: string): { samples: SampleFacts[]; repeats: Problem[] } {
  const first = new Map<string, SampleFacts>();
  const again = new Map<string, string[]>();
  for (const f of facts) {
    const seen = first.get(f.unit);
    if (!seen) first.set(f.unit, f);
    else again.set(f.unit, [...(again.get(f.unit) ?? [placeOf(seen)]), placeOf(f)]);
  }
  const repeats = [...again].map(([unit, places]) => problem(file, `sample ${unit} given more than once: ${places.join(' and ')}`));
  return { samples: [...first.values()], repeats };
}

async function readEval(path: string, ctx: ReadContext, memory: EvalMemory, changedAt: number): Promise<InspectLog> {
  const problems: Problem[] = [];
  const directory = await zipDirectory(ctx.fs, path);
  const ended = directory.get('header.json');
  const headerMember = ended ?? directory.get('_journal/start.json');
  const headerRead = headerMember ? await member(headerMember, memory, asJson(path, headerMember, ctx, obj)) : null;
  const header = headerRead?.value ?? {};
  if (headerRead) append(problems, headerRead.problems);
  // The final summaries hold every sample; while it runs, the journal's batches do.
  const final = directory.get('summaries.json');
  const batches = final ? [final] : [...directory].filter((m) => JOURNAL_SUMMARY.test(m.name)).sort((a, b) => Number(JOURNAL_SUMMARY.exec(a.name)?.[1]) - Number(JOURNAL_SUMMARY.exec(b.name)?.[1]));
  const facts: SampleFacts[] = [];
  for (const m of batches) {
    const read = await member(m, memory, (own) => summaryFacts(memberChunks(ctx.fs, path, m), m.name, own));
    append(problems, read.problems);
    append(facts, read.value ?? []);
  }
  // A sample written before its summary (or a log whose summaries say no tokens) is read itself.
  const firstAt = new Map<string, number>();
  facts.forEach((f, i) => firstAt.has(f.unit) || firstAt.set(f.unit, i));
  const present = new Set<string>();
  for (const m of directory) {
    if (memory.parsed.has(m.name)) present.add(m.name);
    const sample = SAMPLE.exec(m.name);
    const at = sample ? firstAt.get(`${sample[1]}#${sample[2]}`) : undefined;
    if (!sample || (at !== undefined && (facts[at] as SampleFacts).usage !== null)) continue;
    const read = await member(m, memory, asJson(path, m, ctx, (value, own) => factsOf(value, m.name, null, own) ?? undefined));
    present.add(m.name);
    append(problems, read.problems);
    const own = read.value;
    if (!own) continue;
    // Its summary's place and scores stand; the sample adds what the summary does not say.
    if (at !== undefined) facts[at] = { ...own, scores: { ...own.scores, ...(facts[at] as SampleFacts).scores }, from: (facts[at] as SampleFacts).from, index: (facts[at] as SampleFacts).index };
    else facts.push(own);
  }
  // Members gone from the zip are let go.
  for (const name of memory.parsed.keys()) if (!present.has(name)) memory.parsed.delete(name);
  const { samples, repeats } = onceEach(facts, basename(path));
  return { header, ended: ended !== undefined, samples, repeats, problems, beingWritten: false, changedAt };
}

/** A JSON log that does not parse now: caught while it is written. */
class PartlyWritten extends Error {}

async function readJsonLog(path: string, ctx: ReadContext, changedAt: number): Promise<InspectLog> {
  const problems: Problem[] = [];
  const name = basename(path);
  const read = await ctx.fs.readBytes(path, 0, MAX_MEMBER_BYTES);
  if (!read) throw new PartlyWritten('it could not be read');
  if (read.truncated) return { header: {}, ended: false, samples: [], repeats: [], problems: [problem(name, `too large to read (over ${MAX_MEMBER_BYTES} bytes)`)], beingWritten: false, changedAt };
  let log: Record<string, unknown>;
  try {
    log = obj(parseJson(read.bytes.toString('utf8')));
  } catch (error) {
    throw new PartlyWritten(`not JSON: ${(error as Error).message}`);
  }
  const facts = Array.isArray(log.samples) ? log.samples.flatMap((s, i) => factsOf(s, `${name} samples`, i, problems) ?? []) : [];
  const { samples, repeats } = onceEach(facts, name);
  return { header: log, ended: typeof log.status === 'string', samples, repeats, problems, beingWritten: false, changedAt };
}

/** The log at `path`, read on from what `memory` holds; a `.eval` caught while it is replaced gives the last good reading. */
export async function readInspectLog(path: string, ctx: ReadContext, memory: EvalMemory): Promise<InspectLog | null> {
  const info = await ctx.fs.stat(path);
  if (!info) return null;
  const stamp = `${info.size} ${info.mtimeMs}`;
  if (memory.last && memory.stamp === stamp) return memory.last;
  try {
    const log = path.endsWith('.json') ? await readJsonLog(path, ctx, info.mtimeMs) : await readEval(path, ctx, memory, info.mtimeMs);
    memory.last = log;
    memory.stamp = stamp;
    return log;
  } catch (error) {
    if (!(error instanceof ZipBroken || error instanceof PartlyWritten)) throw error;
    const reason = problem(basename(path), `being written (${error.message}); showing its last good reading`, { severity: 'warning' });
    const last = memory.last ?? { header: {}, ended: false, samples: [], repeats: [], problems: [], beingWritten: true, changedAt: info.mtimeMs };
    return { ...last, problems: [...last.problems, reason], beingWritten: true, changedAt: info.mtimeMs };
  }
}
