import type { Transcript } from '../../shared/cell-detail';
import type { CellSummary } from '../../shared/model';
import { ADAPTERS } from '../../runners';
import { NotFoundError } from '../errors';
import type { ContextOf } from '../host-context';

/** One unit of a cell read like a transcript (a NeMo Gym rollout), where the cell lives. */
export async function readTranscript(cell: CellSummary, contextOf: ContextOf, unit: string): Promise<Transcript> {
  const transcripts = ADAPTERS[cell.format].capabilities.transcripts;
  if (!transcripts) throw new NotFoundError(`${cell.name} (${cell.format}) keeps no transcripts`);
  const transcript = await transcripts.read(cell.path, unit, contextOf(cell).read());
  if (!transcript) throw new NotFoundError(`${cell.name} has no rollout ${unit}`);
  return transcript;
}
