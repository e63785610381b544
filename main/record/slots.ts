import { join } from 'node:path';
import type { Comparison } from '../../shared/cell-detail';
import type { CellSummary } from '../../shared/model';
import { ADAPTERS } from '../../runners';
import type { ContextOf, LocalCopy } from '../place/context';
import { slotInputs, type ComposeOptions } from './compose';
import { recordComparison, type RecordResult } from './record';
import { SlotError } from '../../shared/errors';

/** The file names of a camera's frames or video, from the URLs the comparison lists. */
function cameraFiles(camera: { name: string; urls: string[]; video?: string }): string[] {
  if (camera.video) return [`${camera.name}.mp4`];
  return camera.urls.map((url) => `${camera.name}/${decodeURIComponent(url.split('/').pop() as string)}`);
}

/**
 * Records a comparison with ffmpeg. ffmpeg reads local files, so the frames of a cell on an SSH host are
 * first copied to a temporary folder over the host's connection (and removed after).
 */
export async function recordSlots(
  ffmpeg: string,
  comparison: Comparison,
  cells: CellSummary[],
  contextOf: ContextOf,
  options: Omit<ComposeOptions, 'labels'>,
  onProgress?: (fraction: number) => void,
): Promise<RecordResult> {
  const folders = new Map<string, string>();
  const copies: LocalCopy[] = [];
  try {
    for (const slot of comparison.slots) {
      const cell = cells.find((c) => c.id === slot.cellId) as CellSummary;
      if (slot.source === null) {
        throw new SlotError(`${slot.slot}: ${slot.session} ${slot.version} has no frames for seed ${comparison.seed}; seeds with frames: ${slot.seedsWithFrames.join(', ') || 'none'} (every slot: ${comparison.common.join(', ') || 'none'})`);
      }
      const folder = ADAPTERS[cell.format].capabilities.versions?.framesFolder(slot.source, slot.version, comparison.seed) as string;
      const copy = await contextOf(cell).localCopy(cell.path, slot.frames.cameras.flatMap(cameraFiles).map((file) => `${folder}/${file}`));
      copies.push(copy);
      folders.set(slot.slot, join(copy.dir, folder));
    }
    return await recordComparison(ffmpeg, slotInputs(comparison, (slot) => folders.get(slot.slot) as string), options, onProgress);
  } finally {
    await Promise.all(copies.map((c) => c.release()));
  }
}
