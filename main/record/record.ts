import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { ffmpegArgs, type ComposeOptions, type SlotInput } from './compose';

export interface RecordResult {
  out: string;
  labels: boolean;
  /** Said when the labels were left out (an ffmpeg without drawtext or fonts). */
  note: string | null;
}

function run(ffmpeg: string, args: string[], seconds: number, onProgress: (fraction: number) => void): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^out_time_(?:us|ms)=(\d+)/.exec(line);
      if (match) onProgress(Math.min(1, Number(match[1]) / 1e6 / seconds));
    });
    child.on('error', (error) => reject(new Error(`could not run ${ffmpeg}: ${error.message}`)));
    child.on('close', (code) => resolve(code === 0 ? null : stderr.trim() || `exit code ${code}`));
  });
}

/** Composes the slots into a labelled grid and encodes an H.264 mp4; reports progress from 0 to 1. */
export async function recordComparison(
  ffmpeg: string,
  slots: SlotInput[],
  options: Omit<ComposeOptions, 'labels'>,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<RecordResult> {
  await mkdir(dirname(options.out), { recursive: true });
  const failure = await run(ffmpeg, ffmpegArgs(slots, { ...options, labels: true }), options.seconds, onProgress);
  if (failure === null) {
    onProgress(1);
    return { out: options.out, labels: true, note: null };
  }
  if (!/drawtext|font/i.test(failure)) throw new Error(`ffmpeg failed: ${failure}`);
  const again = await run(ffmpeg, ffmpegArgs(slots, { ...options, labels: false }), options.seconds, onProgress);
  if (again !== null) throw new Error(`ffmpeg failed: ${again}`);
  onProgress(1);
  return { out: options.out, labels: false, note: `labels left out: this ffmpeg cannot draw text (${failure.split('\n')[0]})` };
}
