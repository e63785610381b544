// A NeMo Gym row summarised from its bytes: the unit, the agent, the reward, the token counts and the
// environment's own small fields, without building the conversation around them (formats.md section 5).
import { problem, type Problem } from '../../shared/model';
import type { LineChunk } from '../common/jsonl';
import { num, obj, str } from '../common/values';
import { rowMembers, type Members } from './row-members';

/**
 * Members that are not the environment's fields: the conversation itself (never parsed for a summary),
 * and the row's own bookkeeping, read into named fields.
 */
const NOT_FIELDS = new Set([
  ...['responses_create_params', 'response', 'ng_trajectory', 'ng_agent_observations'],
  ...['_ng_task_index', '_ng_rollout_index', '_ng_attempt_index', '_ng_failure_class', '_ng_failure_terminal', '_ng_failure_message', 'agent_ref', 'reward'],
]);

export interface RowUsage {
  input: number | null;
  cached: number | null;
  output: number | null;
  reasoning: number | null;
}

export interface NemoRow {
  line: number;
  /** The byte its line starts at, so the whole row can be read again when opened. */
  offset: number;
  task: number | null;
  repeat: number | null;
  attempt: number | null;
  agent: string | null;
  /** As the row gives it: a number is scored, anything else is shown as it is. */
  reward: unknown;
  usage: RowUsage | null;
  model: string | null;
  failureClass: string | null;
  terminal: boolean;
  /**
   * The environment's own fields (resolved, patch_exists, hit, ...) in the row's order: small ones as they
   * are, one too long to keep here present as undefined, its size in `largeFields`.
   */
  fields: Record<string, unknown>;
  /** The environment's fields too long to keep in a summary, by the bytes of their JSON. */
  largeFields: Record<string, number>;
  /** The row carries ng_trajectory or ng_agent_observations. */
  observed: boolean;
}

export const unitOf = (row: Pick<NemoRow, 'task' | 'repeat'>) => `${row.task}#${row.repeat ?? 0}`;

/** A materialized input as the count reads it: the unit it plans, and the agent that is to run it. */
export type PlannedUnit = Pick<NemoRow, 'line' | 'task' | 'repeat' | 'agent'>;

/**
 * One copy of each agent, model and failure class name, shared by every row that names it: 100,000 rows
 * of one agent otherwise hold 100,000 copies of its name. A few thousand names at most are kept.
 */
const names = new Map<string, string>();
function shared(name: string | null): string | null {
  if (name === null) return null;
  const known = names.get(name);
  if (known !== undefined) return known;
  if (names.size < 4096) names.set(name, name);
  return name;
}

function usageOf(members: Members): { usage: RowUsage | null; model: string | null } {
  const usage = obj(members.usage());
  const model = shared(str(members.model()));
  if (!Object.keys(usage).length) return { usage: null, model };
  return {
    model,
    usage: {
      input: num(usage.input_tokens),
      cached: num(obj(usage.input_tokens_details).cached_tokens),
      output: num(usage.output_tokens),
      reasoning: num(obj(usage.output_tokens_details).reasoning_tokens),
    },
  };
}

const NOT_AN_OBJECT = 'not a JSON object; skipped';

/** The unit a row's members name, or why they name none. */
export function plannedOf(members: Pick<Members, 'value' | 'has'> | null, line: number): PlannedUnit | string {
  if (!members) return NOT_AN_OBJECT;
  const task = members.value('_ng_task_index');
  if (typeof task !== 'number' || !Number.isInteger(task)) return members.has('_ng_task_index') ? '_ng_task_index is not a whole number; skipped' : 'no _ng_task_index; skipped';
  const repeat = members.value('_ng_rollout_index');
  return { line, task, repeat: typeof repeat === 'number' && Number.isInteger(repeat) ? repeat : null, agent: shared(str(obj(members.value('agent_ref')).name)) };
}

/** One line's row, from its members, or why it is none. */
function rowOf(members: Members | null, line: number, offset: number): NemoRow | string {
  if (!members) return NOT_AN_OBJECT;
  const unit = plannedOf(members, line);
  if (typeof unit === 'string') return unit;
  const fields = members.fields(NOT_FIELDS);
  return {
    line,
    offset,
    task: unit.task,
    repeat: unit.repeat,
    attempt: num(members.value('_ng_attempt_index')),
    agent: unit.agent,
    reward: members.value('reward'),
    ...usageOf(members),
    failureClass: shared(str(members.value('_ng_failure_class'))),
    terminal: members.value('_ng_failure_terminal') === true,
    fields: fields.small,
    largeFields: fields.large,
    observed: members.has('ng_trajectory') || members.has('ng_agent_observations'),
  };
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
 * The complete lines of a chunk of a rollouts or failures file, each summarised from its members' bounds
 * (rowMembers), the conversation never parsed; a partial last line waits.
 */
export function summarizeLines(bytes: Buffer, file: string, firstLine: number, offset: number): LineChunk<NemoRow> {
  const records: NemoRow[] = [];
  const problems: Problem[] = [];
  const taken = eachRow(bytes, firstLine, (start, end, line) => {
    const row = rowOf(rowMembers(bytes, start, end), line, offset + start);
    if (typeof row === 'string') problems.push(problem(file, row, { line }));
    else records.push(row);
  });
  return { records, problems, ...taken };
}
