import { join } from 'node:path';
import type { Comparison, ComparedSlot } from '../../shared/cell-detail';
import { append, largest } from '../../shared/arrays';

/** A recording is at least this high (a slide's 720p): its frames are scaled up, pixel for pixel, by a whole number to fill it. */
const MIN_HEIGHT = 720;
/** The strip at the top that holds the timecode. */
const HEADER_HEIGHT = 28;
/** The band above each slot's row: its slot, version, seed and outcome, then each camera's name over its tile. */
const LABEL_HEIGHT = 48;
const FRAME = 84;
const BACKGROUND = '0x15171b';
const CAMERA_COLOUR = '0xc9d1d9';
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
 * Where ffmpeg reads each slot's inputs, its labels and the font, by names relative to a folder of the
 * recording's own (ffmpeg runs in it), holding a link to each camera's frames or video, a text file for each
 * label and a link to the font. ffmpeg never sees a run's paths or names: image2 reads `%` in a path as a
 * pattern, and drawtext expands `%{...}` in its text (`%{e:while(1,1)}` spins it for good), so a label is
 * read from its file with expansion off. Nor the folder's own path: a filter option takes `:`, `\`, `'`
 * and `,` as syntax, and a temporary folder can hold them (`C:\Users\...\Temp`).
 */
export const WORK_FILES = {
  camera: (slot: number, camera: number) => `c${slot}_${camera}`,
  label: (slot: number) => `label${slot}.txt`,
  cameraLabel: (slot: number, camera: number) => `label${slot}_${camera}.txt`,
  font: 'font.ttf',
};

/**
 * The window's grid as the video lays it out: the timecode's strip, then a row per slot under its label
 * band, its cameras side by side, each `tile` px square.
 */
function gridGeometry(slots: SlotInput[], labels: boolean) {
  const [header, band] = labels ? [HEADER_HEIGHT, LABEL_HEIGHT] : [0, 0];
  const scale = Math.max(2, Math.ceil(((MIN_HEIGHT - header) / Math.max(1, slots.length) - band) / FRAME));
  const tile = FRAME * scale;
  return { header, band, tile, width: tile * largest(slots.map((s) => s.cameras.length), 1) };
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
 * The ffmpeg arguments that compose the grid (gridGeometry) and encode it as H.264. The labels do not
 * move, so each band is drawn once and repeated (loop): only the timecode is drawn on every frame.
 */
export function ffmpegArgs(slots: SlotInput[], options: ComposeOptions): string[] {
  const files = WORK_FILES;
  const inputs: string[] = [];
  const filters: string[] = [];
  let index = 0;
  const { header, band, tile, width } = gridGeometry(slots, options.labels);
  const font = `fontfile=${files.font}`;
  // A user's text is read from its file with expansion off (see workFiles).
  const text = (file: string, x: number, y: number, size: number, colour: string) => `drawtext=textfile='${file}':expansion=none:x=${x}:y=${y}:fontsize=${size}:fontcolor=${colour}:${font}`;
  const still = (height: number, draw: string[]) => `color=c=${BACKGROUND}:s=${width}x${height}:r=${options.fps},${draw.join(',')},trim=end_frame=1,loop=loop=-1:size=1,setpts=N/(${options.fps}*TB)`;
  const rows: string[] = [];
  slots.forEach((slot, i) => {
    const names: string[] = [];
    slot.cameras.forEach((camera, j) => {
      // Every input comes from a run directory: local files only, each read as the format it claims (a
      // playlist saved as .mp4 is not followed), so no input can make ffmpeg open anything else.
      const guarded = ['-protocol_whitelist', 'file,pipe'];
      if (camera.frames) append(inputs, [...guarded, '-f', 'image2', '-c:v', 'png', '-framerate', String(options.fps), '-start_number', String(camera.frames.start), '-i', join(files.camera(i, j), '%06d.png')]);
      else append(inputs, [...guarded, '-f', 'mp4', '-i', `file:${files.camera(i, j)}`]);
      // A shorter slot holds its last frame until the recording ends.
      filters.push(`[${index++}:v]fps=${options.fps},scale=${tile}:${tile}:flags=neighbor,setsar=1,tpad=stop_mode=clone:stop_duration=${options.seconds}[c${i}_${j}]`);
      names.push(`[c${i}_${j}]`);
    });
    const cameras = names.length > 1 ? `${names.join('')}hstack=inputs=${names.length}` : `${names[0]}null`;
    filters.push(`${cameras},pad=${width}:${tile}:0:0:color=${BACKGROUND}[t${i}]`);
    if (options.labels) {
      const labels = [text(files.label(i), 8, 6, 16, OUTCOME_COLOUR[slot.outcome]), ...slot.cameras.map((_, j) => text(files.cameraLabel(i, j), j * tile + 8, 28, 13, CAMERA_COLOUR))];
      filters.push(`${still(band, labels)}[b${i}]`, `[b${i}][t${i}]vstack=inputs=2:shortest=1[s${i}]`);
      rows.push(`[s${i}]`);
    } else rows.push(`[t${i}]`);
  });
  // The timecode is this program's own text: expanded, as no name from a run directory is.
  if (options.labels) {
    filters.push(`color=c=${BACKGROUND}:s=${width}x${header}:r=${options.fps},drawtext=text='%{pts\\:hms}':x=w-tw-8:y=6:fontsize=16:fontcolor=white:${font}[clock]`);
    rows.unshift('[clock]');
  }
  filters.push(`${rows.join('')}${rows.length > 1 ? `vstack=inputs=${rows.length}:shortest=1` : 'null'}[grid]`);
  return [
    '-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1',
    ...inputs,
    '-filter_complex', filters.join(';'),
    '-map', '[grid]', '-t', String(options.seconds), '-r', String(options.fps),
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-y', options.out,
  ];
}
