import { join } from 'node:path';
import type { FrameSet, FrameSource } from '../shared/cell-detail';
import type { CellSummary } from '../shared/model';
import { ADAPTERS, type CellFs } from '../runners';
import { FramesError } from '../shared/errors';

/** Versions' cameras record at this rate; episode observations are stills, shown two a second. */
const VIDEO_FPS = 25;
const STILLS_FPS = 2;
const IMAGE = /\.(png|jpe?g)$/i;


/** The URL the window loads a cell's file from: relative, so it resolves in the browser and in Electron alike. */
export function mediaUrl(cellId: string, relativePath: string): string {
  return `media/${encodeURIComponent(cellId)}/${relativePath.split('/').map(encodeURIComponent).join('/')}`;
}

async function images(fs: CellFs, dir: string): Promise<string[]> {
  return ((await fs.list(dir)) ?? []).filter((e) => e.kind === 'file' && IMAGE.test(e.name)).map((e) => e.name).sort();
}

/** The frames of a source, asked of the cell's format: an episode's stills, or a version's cameras on a seed. */
export async function listFrames(cell: CellSummary, source: FrameSource, fs: CellFs): Promise<FrameSet> {
  const capabilities = ADAPTERS[cell.format].capabilities;
  if (source.kind === 'episode') {
    if (!capabilities.episodeStreams) throw new FramesError(`${cell.name}: its episodes have no frames of their own`);
    const folder = capabilities.episodeStreams.framesFolder(source.episode);
    const names = await images(fs, join(cell.path, folder));
    return { fps: STILLS_FPS, cameras: [{ name: 'observation', urls: names.map((n) => mediaUrl(cell.id, `${folder}/${n}`)) }] };
  }
  if (!capabilities.versions) throw new FramesError(`${cell.name} has no policy versions`);
  const folder = capabilities.versions.framesFolder(source.kind, source.version, source.seed);
  const entries = (await fs.list(join(cell.path, folder))) ?? [];
  if (entries.length === 0) throw new FramesError(`${cell.name} has no ${source.kind} frames for ${source.version} on seed ${source.seed} (${folder})`);
  const cameras = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.kind === 'dir') {
      const names = await images(fs, join(cell.path, folder, entry.name));
      if (names.length) cameras.push({ name: entry.name, urls: names.map((n) => mediaUrl(cell.id, `${folder}/${entry.name}/${n}`)) });
    } else if (entry.kind === 'file' && entry.name.endsWith('.mp4')) {
      cameras.push({ name: entry.name.slice(0, -4), urls: [], video: mediaUrl(cell.id, `${folder}/${entry.name}`) });
    }
  }
  return { fps: VIDEO_FPS, cameras };
}
