import type { Transcript } from '../../shared/cell-detail';
import type { CellSummary } from '../../shared/model';
import { ADAPTERS } from '../../runners';
import { NotFoundError } from '../errors';
import type { ContextOf } from '../host-context';
import type { OpenCellReader } from './open-reader';

/** One unit of a cell read like a transcript (a NeMo Gym rollout), where the cell lives: a local one off this thread. */
export async function readTranscript(cell: CellSummary, contextOf: ContextOf, unit: string, reader?: OpenCellReader): Promise<Transcript> {
  const transcripts = ADAPTERS[cell.format].capabilities.transcripts;
  if (!transcripts) throw new NotFoundError(`${cell.name} (${cell.format}) keeps no transcripts`);
  const transcript = cell.host === 'local' && reader ? await reader.transcript(cell.path, cell.format, unit) : await transcripts.read(cell.path, unit, contextOf(cell).read());
  if (!transcript) throw new NotFoundError(`${cell.name} has no rollout ${unit}`);
  return transcript;
}
