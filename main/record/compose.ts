import { join } from 'node:path';
import type { Comparison, ComparedSlot } from '../../shared/cell-detail';
import { append, largest } from '../../shared/arrays';

/** A recording is at least this high (a slide's 720p): its frames are scaled up, pixel for pixel, by a whole number to fill it. */
const MIN_HEIGHT = 720;
/** The band above each slot's row that names it. */
const LABEL_HEIGHT = 32;
const FRAME = 84;
const FONT = 'font=DejaVu Sans Mono';
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
  cameraLabel: (slot: number, camera: number) => join(work, `label${slot}_${camera}.txt`),
});

/** The window's grid as the video lays it out: a row per slot under its label, its cameras side by side, each `tile` px square. */
function gridGeometry(slots: SlotInput[], labels: boolean): { tile: number; width: number; rowHeight: number } {
  const label = labels ? LABEL_HEIGHT : 0;
  const scale = Math.max(2, Math.ceil((MIN_HEIGHT / Math.max(1, slots.length) - label) / FRAME));
  const tile = FRAME * scale;
  const rowHeight = tile + label;
  return { tile, width: tile * largest(slots.map((s) => s.cameras.length), 1), rowHeight };
}

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

/**
 * The ffmpeg arguments that compose the grid (gridGeometry), each row labelled with its slot, version, seed
 * and outcome, each tile with its camera, the time burnt in at the top right, and encode it as H.264.
 */
export function ffmpegArgs(slots: SlotInput[], options: ComposeOptions, work: string): string[] {
  const files = workFiles(work);
  const inputs: string[] = [];
  const filters: string[] = [];
  let index = 0;
  const { tile, width, rowHeight } = gridGeometry(slots, options.labels);
  // A user's text is read from its file with expansion off (see workFiles).
  const text = (file: string, at: string, size: number, colour: string) => `drawtext=textfile='${file}':expansion=none:${at}:fontsize=${size}:fontcolor=${colour}:${FONT}`;
  slots.forEach((slot, i) => {
    const names: string[] = [];
    slot.cameras.forEach((camera, j) => {
      // Every input comes from a run directory: local files only, each read as the format it claims (a
      // playlist saved as .mp4 is not followed), so no input can make ffmpeg open anything else.
      const guarded = ['-protocol_whitelist', 'file,pipe'];
      if (camera.frames) append(inputs, [...guarded, '-f', 'image2', '-c:v', 'png', '-framerate', String(options.fps), '-start_number', String(camera.frames.start), '-i', join(files.camera(i, j), '%06d.png')]);
      else append(inputs, [...guarded, '-f', 'mp4', '-i', `file:${files.camera(i, j)}`]);
      const name = `c${i}_${j}`;
      const named = options.labels ? `,${text(files.cameraLabel(i, j), 'x=6:y=h-22', 14, 'white')}:box=1:boxcolor=black@0.55:boxborderw=3` : '';
      // A shorter slot holds its last frame until the recording ends.
      filters.push(`[${index++}:v]fps=${options.fps},scale=${tile}:${tile}:flags=neighbor,setsar=1,tpad=stop_mode=clone:stop_duration=${options.seconds}${named}[${name}]`);
      names.push(`[${name}]`);
    });
    const row = names.length > 1 ? `${names.join('')}hstack=inputs=${names.length}` : `${names[0]}null`;
    const padded = `pad=${width}:${rowHeight}:0:${rowHeight - tile}:color=${BACKGROUND}`;
    const label = options.labels ? `,${text(files.label(i), 'x=8:y=8', 16, OUTCOME_COLOUR[slot.outcome])}` : '';
    filters.push(`${row},${padded}${label}[s${i}]`);
  });
  const rows = slots.map((_, i) => `[s${i}]`).join('');
  const stacked = slots.length > 1 ? `${rows}vstack=inputs=${slots.length}` : `${rows}null`;
  // The timecode is this program's own text: expanded, as no name from a run directory is.
  const timecode = options.labels ? `,drawtext=text='%{pts\\:hms}':x=w-tw-8:y=8:fontsize=16:fontcolor=white:${FONT}` : '';
  filters.push(`${stacked}${timecode}[grid]`);
  return [
    '-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1',
    ...inputs,
    '-filter_complex', filters.join(';'),
    '-map', '[grid]', '-t', String(options.seconds), '-r', String(options.fps),
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-y', options.out,
  ];
}
