import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { unpackedFile } from '../paths';
import { ffmpegArgs, WORK_FILES, type ComposeOptions, type SlotInput } from './compose';

export interface RecordResult {
  out: string;
  labels: boolean;
  /** Said when the labels were left out (an ffmpeg without drawtext or fonts). */
  note: string | null;
}

/** How long ffmpeg may take for a recording of `seconds`: far more than it needs (0.14x real time here), then SIGKILL. */
export const deadlineMs = (seconds: number) => 120_000 + seconds * 10_000;

function run(ffmpeg: string, args: string[], work: string, seconds: number, onProgress: (fraction: number) => void, limitMs: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    // In the work folder: the filter graph names its files relative to it (WORK_FILES).
    const child = spawn(ffmpeg, args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    // An ffmpeg that hangs ignores SIGTERM: it is killed at its deadline, or with this process.
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`ffmpeg took longer than ${Math.round(limitMs / 1000)} s: stopped`));
    }, limitMs);
    process.once('exit', kill);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^out_time_(?:us|ms)=(\d+)/.exec(line);
      if (match) onProgress(Math.min(1, Number(match[1]) / 1e6 / seconds));
    });
    child.on('error', (error) => reject(new Error(`could not run ${ffmpeg}: ${error.message}`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      process.off('exit', kill);
      resolve(code === 0 ? null : stderr.trim() || `exit code ${code}`);
    });
  });
}

/** The font the labels are drawn in, shipped with the app: the same on every machine, and no fontconfig to ask. */
const labelFont = () => unpackedFile(dirname(fileURLToPath(import.meta.url)), 'assets', 'fonts', 'DejaVuSansMono.ttf');

/** Composes the slots into a labelled grid and encodes an H.264 mp4; reports progress from 0 to 1. */
export async function recordComparison(
  ffmpeg: string,
  slots: SlotInput[],
  options: Omit<ComposeOptions, 'labels'>,
  onProgress: (fraction: number) => void = () => undefined,
  limitMs = deadlineMs(options.seconds),
): Promise<RecordResult> {
  // ffmpeg runs in the work folder: the output named from here.
  const out = resolve(options.out);
  await mkdir(dirname(out), { recursive: true });
  const work = await mkdtemp(join(tmpdir(), 'cellwatch-record-'));
  try {
    const at = (name: string) => join(work, name);
    await Promise.all(
      [symlink(labelFont(), at(WORK_FILES.font))].concat(slots.flatMap((slot, i) => [
        writeFile(at(WORK_FILES.label(i)), slot.label),
        ...slot.cameras.flatMap((camera, j) => [symlink((camera.frames?.dir ?? camera.video) as string, at(WORK_FILES.camera(i, j))), writeFile(at(WORK_FILES.cameraLabel(i, j)), camera.name)]),
      ])),
    );
    const attempt = (labels: boolean) => run(ffmpeg, ffmpegArgs(slots, { ...options, out, labels }), work, options.seconds, onProgress, limitMs);
    const failure = await attempt(true);
    if (failure === null) {
      onProgress(1);
      return { out: options.out, labels: true, note: null };
    }
    if (!/drawtext|font/i.test(failure)) throw new Error(`ffmpeg failed: ${failure}`);
    const again = await attempt(false);
    if (again !== null) throw new Error(`ffmpeg failed: ${again}`);
    onProgress(1);
    return { out: options.out, labels: false, note: `labels left out: this ffmpeg cannot draw text (${failure.split('\n')[0]})` };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
