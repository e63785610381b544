// What a media URL names: a file of a listed cell (here or on its host) or a recording.
import type { CellSummary } from '../shared/model';
import type { ContextOf, Media } from './place/context';
import { mediaHeaders, mediaType, resolveStatic } from './static';

/** Whether a URL path names media (a cell's file, a recording): served only as media, never as the app. */
export const isMediaPath = (urlPath: string) => urlPath.startsWith('/media/') || urlPath.startsWith('/recordings/');

/**
 * A media URL as the window's two transports (serve mode, the Electron protocol) answer it: the file or its
 * bytes, with headers of its media type (sandboxed, never active content in the app's origin); null where
 * nothing is there or it is no media type.
 */
export async function mediaAnswer(find: (urlPath: string) => Promise<Media | null>, urlPath: string): Promise<{ media: Media; headers: Record<string, string> } | null> {
  const media = await find(urlPath);
  const name = media ? ('bytes' in media ? media.name : media.file) : '';
  const type = mediaType(name);
  return media && type ? { media, headers: mediaHeaders(name, type) } : null;
}

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
