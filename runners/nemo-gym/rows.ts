// NeMo Gym rows summarised from their bytes: the unit, the agent, the reward, the token counts and the
// environment's own small fields, without building the conversation around them (formats.md section 5).
import { problem, type Problem } from '../../shared/model';
import type { LineChunk } from '../common/jsonl';
import { BlockWriter, type PlannedUnit, type RowBlock } from './row-block';
import { SpanMembers } from './row-members';

/**
 * One copy of each agent name an input gives, shared by every input that names it: 100,000 inputs of one
 * agent otherwise hold 100,000 copies of its name. A few thousand names at most are kept.
 */
const names = new Map<string, string>();
function shared(name: string | null): string | null {
  if (name === null) return null;
  const known = names.get(name);
  if (known !== undefined) return known;
  if (names.size < 4096) names.set(name, name);
  return name;
}

const NOT_AN_OBJECT = 'not a JSON object; skipped';

/** The unit a row's members name, or why they name none. */
export function plannedOf(members: SpanMembers | null, line: number): PlannedUnit | string {
  if (!members) return NOT_AN_OBJECT;
  const task = members.value('_ng_task_index');
  if (typeof task !== 'number' || !Number.isInteger(task)) return members.has('_ng_task_index') ? '_ng_task_index is not a whole number; skipped' : 'no _ng_task_index; skipped';
  const repeat = members.value('_ng_rollout_index');
  return { line, task, repeat: typeof repeat === 'number' && Number.isInteger(repeat) ? repeat : null, agent: shared(members.agent()) };
}

/** Bytes JavaScript's trim() takes for white space, read as latin1: a line of nothing else is blank. */
const isBlankByte = (c: number) => (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0;

/**
 * Each complete, not blank line of a chunk (bytes[start, end), its number and first byte); where the last
 * complete line ends and how many lines that is.
 */
export function eachRow(bytes: Buffer, firstLine: number, visit: (start: number, end: number, line: number) => void): { consumed: number; lines: number } {
  let start = 0;
  let line = firstLine;
  for (let end = bytes.indexOf(0x0a); end >= 0; start = end + 1, end = bytes.indexOf(0x0a, start), line++) {
    let first = start;
    while (first < end && isBlankByte(bytes[first] as number)) first++;
    if (first < end) visit(start, end, line);
  }
  return { consumed: start, lines: line - firstLine };
}

/**
 * The complete lines of a chunk of a rollouts or failures file as one block of rows (none where no line is
 * a row), each summarised from its members' bounds (SpanMembers), the conversation never parsed; a partial
 * last line waits.
 */
export function summarizeLines(bytes: Buffer, file: string, firstLine: number, offset: number): LineChunk<RowBlock> {
  const writer = new BlockWriter();
  const problems: Problem[] = [];
  // One a chunk, scanned again for each of its rows: nothing of a row is held past its chunk.
  const members = new SpanMembers(bytes);
  const taken = eachRow(bytes, firstLine, (start, end, line) => {
    const unit = plannedOf(members.scan(start, end) ? members : null, line);
    if (typeof unit === 'string') problems.push(problem(file, unit, { line }));
    else writer.add(members, unit, offset + start);
  });
  const block = writer.done();
  return { records: block ? [block] : [], problems, ...taken };
}
