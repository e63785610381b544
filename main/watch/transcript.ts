import type { Transcript } from '../../shared/cell-detail';
import type { CellSummary } from '../../shared/model';
import { ADAPTERS } from '../../runners';
import type { OpenCellReader } from './open-reader';
import { NotFoundError } from '../../shared/errors';

/** One unit of a cell read like a transcript (a rollout, a sample, an episode from its event log), off this thread, wherever the cell lives. */
export async function readTranscript(cell: CellSummary, unit: string, reader: OpenCellReader): Promise<Transcript> {
  const { transcripts, episodeStreams } = ADAPTERS[cell.format].capabilities;
  if (!transcripts && !episodeStreams) throw new NotFoundError(`${cell.name} (${cell.format}) keeps no transcripts`);
  const transcript = await reader.transcript(cell.host, cell.path, cell.format, unit);
  if (!transcript) throw new NotFoundError(`${cell.name} has no ${transcripts ? 'rollout' : 'episode'} ${unit}`);
  return transcript;
}
