// What a media URL names: a file of a listed cell (here or on its host) or a recording.
import type { CellSummary } from '../shared/model';
import type { ContextOf, Media } from './place/context';
import { resolveStatic } from './static';

/**
 * The file a `media/<cell id>/<path>` URL names, only inside a listed cell, or a `recordings/<file>`;
 * null otherwise.
 */
export async function mediaOf(urlPath: string, cells: () => CellSummary[], contextOf: ContextOf, recordingsDir: string): Promise<Media | null> {
  if (urlPath.startsWith('/recordings/')) {
    const file = await resolveStatic(recordingsDir, urlPath.slice('/recordings'.length));
    return file ? { file } : null;
  }
  const match = /^\/media\/([^/]+)\/(.+)$/.exec(urlPath);
  if (!match) return null;
  let id: string;
  try {
    id = decodeURIComponent(match[1] as string);
  } catch {
    return null;
  }
  const cell = cells().find((c) => c.id === id);
  return cell ? contextOf(cell).media(cell.path, match[2] as string) : null;
}
