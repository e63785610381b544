// A NeMo Gym materialized input read as the unit it plans: the few members that name it, at the row's
// end where the collector writes them, else a whole parse of the (small) row; a malformed row is none.
import { parseJson } from '../../shared/json';
import { problem, type Problem } from '../../shared/model';
import { isObject, type JsonObject } from '../common/json';
import { isWholeObject } from '../common/json-bytes';
import type { LineChunk } from '../common/jsonl';
import { ParsedMembers } from './row-members';
import type { PlannedUnit } from './row-block';
import { eachRow, plannedOf } from './rows';

/** The keys of the unit a row names, as their bytes (each quoted). */
const UNIT_KEYS = ['_ng_task_index', '_ng_rollout_index', 'agent_ref'].map((key) => Buffer.from(`"${key}"`));

/** The JSON object a text holds, or null (not JSON, not an object). */
function objectIn(text: string): JsonObject | null {
  try {
    const value = parseJson(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The row's members from the first of its unit's keys on (each key's last place), parsed as an object of
 * their own: that parses only when they are the row's own members and close it (a key inside a member
 * would leave braces or brackets closing past it). Null when it does not.
 */
function unitMembers(row: Buffer): JsonObject | null {
  let from = row.length;
  for (const key of UNIT_KEYS) {
    const at = row.lastIndexOf(key);
    if (at >= 0 && at < from) from = at;
  }
  return from === row.length ? null : objectIn(`{${row.toString('utf8', from)}`);
}

/**
 * The complete lines of a chunk of a materialized-inputs file, each the unit it plans: read from its
 * unit's members at the row's end where they are (unitMembers), else from a whole parse of the row. A row
 * cut off by a crash and followed on its line by a whole one is malformed, as JSON.parse has it, though
 * its end parses.
 */
export function plannedLines(bytes: Buffer, file: string, firstLine: number): LineChunk<PlannedUnit> {
  const records: PlannedUnit[] = [];
  const problems: Problem[] = [];
  const taken = eachRow(bytes, firstLine, (start, end, line) => {
    const row = bytes.subarray(start, end);
    const object = isWholeObject(row, 0, row.length) ? (unitMembers(row) ?? objectIn(row.toString('utf8'))) : null;
    const unit = plannedOf(object && new ParsedMembers(object), line);
    if (typeof unit === 'string') problems.push(problem(file, unit, { line }));
    else records.push(unit);
  });
  return { records, problems, ...taken };
}
