// A NeMo Gym materialized input read as the unit it plans: from its members' bounds, as a rollout's unit
// is (SpanMembers), the input itself never parsed; a row that is not one JSON object is none.
import { problem, type Problem } from '../../shared/model';
import type { LineChunk } from '../common/jsonl';
import { SpanMembers } from './row-members';
import type { PlannedUnit } from './row-block';
import { eachRow, plannedOf } from './rows';

/**
 * The complete lines of a chunk of a materialized-inputs file, each the unit it plans, wherever the row
 * keeps its keys. A row cut off by a crash and followed on its line by a whole one is malformed, as JSON.parse
 * has it, though its end is a whole row's.
 */
export function plannedLines(bytes: Buffer, file: string, firstLine: number): LineChunk<PlannedUnit> {
  const records: PlannedUnit[] = [];
  const problems: Problem[] = [];
  const members = new SpanMembers(bytes);
  const taken = eachRow(bytes, firstLine, (start, end, line) => {
    const unit = plannedOf(members.scan(start, end) ? members : null, line);
    if (typeof unit === 'string') problems.push(problem(file, unit, { line }));
    else records.push(unit);
  });
  return { records, problems, ...taken };
}
