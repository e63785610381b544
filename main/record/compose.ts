import { join } from 'node:path';
import type { Comparison, ComparedSlot } from '../../shared/cell-detail';
import { append, largest } from '../../shared/arrays';

/** Frames are drawn at twice their size (84 → 168 px), pixel for pixel. */
export const SCALE = 2;
const LABEL_HEIGHT = 28;
const BACKGROUND = '0x15171b';
const OUTCOME_COLOUR = { success: '0x4cbf73', failure: '0xe5534b', unknown: '0x8a929e' } as const;

export interface CameraInput {
  name: string;
  /** A folder of FFFFFF.png frames, starting at `start`, or a video file. */
  frames?: { dir: string; start: number; count: number; size: number };
  video?: string;
}

export interface SlotInput {
  label: string;
  outcome: ComparedSlot['outcome'];
  cameras: CameraInput[];
}

export interface ComposeOptions {
  seconds: number;
  fps: number;
  out: string;
  labels: boolean;
}

/**
 * Where ffmpeg reads each slot's inputs and label: a folder of the recording's own, holding a link to each
 * camera's frames or video and a text file for each label. ffmpeg never sees a run's paths or names:
 * image2 reads `%` in a path as a pattern, and drawtext expands `%{...}` in its text (`%{e:while(1,1)}`
 * spins it for good), so a label is read from its file with expansion off.
 */
export const workFiles = (work: string) => ({
  camera: (slot: number, camera: number) => join(work, `c${slot}_${camera}`),
  label: (slot: number) => join(work, `label${slot}.txt`),
});

/** Local paths of each slot's cameras, from the comparison and the local folder of each slot's frames. */
export function slotInputs(comparison: Comparison, folderOf: (slot: ComparedSlot) => string): SlotInput[] {
  return comparison.slots.map((slot) => {
    const folder = folderOf(slot);
    return {
      label: `${slot.session} ${slot.version} · seed ${comparison.seed} · ${slot.outcome}`,
      outcome: slot.outcome,
      cameras: slot.frames.cameras.map((camera) => {
        if (camera.video) return { name: camera.name, video: join(folder, `${camera.name}.mp4`) };
        const first = camera.urls[0]?.split('/').pop() ?? '000000.png';
        return { name: camera.name, frames: { dir: join(folder, camera.name), start: Number.parseInt(first, 10) || 0, count: camera.urls.length, size: 84 } };
      }),
    };
  });
}

/** The ffmpeg arguments that compose the labelled grid (up to three slots a row) and encode it as H.264, its inputs in `work`. */
export function ffmpegArgs(slots: SlotInput[], options: ComposeOptions, work: string): string[] {
  const files = workFiles(work);
  const inputs: string[] = [];
  const filters: string[] = [];
  let index = 0;
  const tileSize = 84 * SCALE;
  const cameras = largest(slots.map((s) => s.cameras.length), 0);
  const width = tileSize * cameras;
  const height = tileSize + (options.labels ? LABEL_HEIGHT : 0);
  slots.forEach((slot, i) => {
    const names: string[] = [];
    slot.cameras.forEach((camera, j) => {
      // Every input comes from a run directory: local files only, each read as the format it claims (a
      // playlist saved as .mp4 is not followed), so no input can make ffmpeg open anything else.
      const guarded = ['-protocol_whitelist', 'file,pipe'];
      if (camera.frames) append(inputs, [...guarded, '-f', 'image2', '-c:v', 'png', '-framerate', String(options.fps), '-start_number', String(camera.frames.start), '-i', join(files.camera(i, j), '%06d.png')]);
      else append(inputs, [...guarded, '-f', 'mp4', '-i', `file:${files.camera(i, j)}`]);
      const name = `c${i}_${j}`;
      // A shorter slot holds its last frame until the recording ends.
      filters.push(`[${index++}:v]fps=${options.fps},scale=${tileSize}:${tileSize}:flags=neighbor,setsar=1,tpad=stop_mode=clone:stop_duration=${options.seconds}[${name}]`);
      names.push(`[${name}]`);
    });
    const row = names.length > 1 ? `${names.join('')}hstack=inputs=${names.length}` : `${names[0]}null`;
    const padded = `pad=${width}:${height}:0:${height - tileSize}:color=${BACKGROUND}`;
    const label = options.labels
      ? `,drawtext=textfile='${files.label(i)}':expansion=none:x=8:y=7:fontsize=14:fontcolor=${OUTCOME_COLOUR[slot.outcome]}:font=DejaVu Sans Mono`
      : '';
    filters.push(`${row},${padded}${label}[s${i}]`);
  });
  const columns = Math.min(3, slots.length);
  const rows = Math.ceil(slots.length / columns);
  const cells = slots.map((_, i) => `[s${i}]`);
  for (let i = slots.length; i < columns * rows; i++) {
    filters.push(`color=c=${BACKGROUND}:s=${width}x${height}:r=${options.fps}[blank${i}]`);
    cells.push(`[blank${i}]`);
  }
  if (cells.length === 1) filters.push(`${cells[0]}null[grid]`);
  else {
    const layout = cells.map((_, i) => `${(i % columns) * width}_${Math.floor(i / columns) * height}`).join('|');
    filters.push(`${cells.join('')}xstack=inputs=${cells.length}:layout=${layout}[grid]`);
  }
  return [
    '-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1',
    ...inputs,
    '-filter_complex', filters.join(';'),
    '-map', '[grid]', '-t', String(options.seconds), '-r', String(options.fps),
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-y', options.out,
  ];
}
