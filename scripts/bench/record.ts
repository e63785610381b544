// npm run bench:record: a 6-slot, 10 s, 25 fps comparison recorded with `cellwatch record`; its wall
// time as a fraction of real time (goal: at most 0.3x on 2 cores), beside ffmpeg alone encoding the same
// frames from raw video, and the command's own part (an ffmpeg that does nothing). Each the median of
// three runs, taken in turn. Beside them, the floor of this design: Node's bare start, ffmpeg composing with
// no encoder after it, then ffmpeg alone encoding: before ffmpeg 7 (the npm one is 4.x, Debian 12's 5.1)
// its command line filters on one thread, and here composing and encoding add up.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDemo } from '../../runners/demo';
import { copyDemo } from '../../runners/demo/copy';
import { findFfmpeg } from '../../main/record/ffmpeg';
import { findFfprobe } from '../../main/record/testing';
import { measure, median, ROOT } from './measure';

const SECONDS = 10;
const FPS = 25;
const home = mkdtempSync(join(tmpdir(), 'cellwatch-bench-record-'));
const runs = join(home, 'runs');
try {
  await runDemo(runs, { speed: 1, instant: true });
  copyDemo(join(runs, 'cartpole_balance'), join(runs, 'second', 'cartpole_again'));
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);
  const slots = 'cartpole_balance:v001,cartpole_balance:v002,cartpole_balance:v003,cartpole_balance:v004,cartpole_again:v002,cartpole_again:last';
  const out = join(home, 'six.mp4');
  const args = [join(ROOT, 'out/cli.mjs'), 'record', '--compare', slots, '--seed', '900001', '--seconds', String(SECONDS), '--fps', String(FPS), '-o', out, runs];
  const ours = () => measure(process.execPath, args);
  // The command with an ffmpeg that does nothing: Node's start, finding the slots, the work folder.
  const command = () => measure(process.execPath, args, { env: { ...process.env, CELLWATCH_FFMPEG: '/usr/bin/true' } });
  await ours();

  const ffmpeg = findFfmpeg();
  // The same ffmpeg given the same inputs and filter graph, its output thrown away instead of encoded.
  const composer = join(home, 'compose-only.sh');
  writeFileSync(composer, `#!/bin/bash
args=()
for arg in "$@"; do
  [[ "$arg" == libx264 && "\${args[-1]}" == -c:v ]] && { unset 'args[-1]'; break; }
  args+=("$arg")
done
exec ${JSON.stringify(ffmpeg)} "\${args[@]}" -pix_fmt yuv420p -f null -
`);
  chmodSync(composer, 0o755);
  const composing = () => measure(process.execPath, args, { env: { ...process.env, CELLWATCH_FFMPEG: composer } });
  const raw = join(home, 'frames.yuv');
  await measure(ffmpeg, ['-v', 'error', '-i', out, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-y', raw]);
  const probe = await measure(findFfprobe(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', out]);
  const [width, height] = probe.stdout.trim().split(',');
  const alone = () => measure(ffmpeg, ['-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-r', String(FPS), '-i', raw, '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-y', join(home, 'alone.mp4')]);
  const bare = () => measure(process.execPath, ['-e', '0']);
  const times = { ours: [] as number[], command: [] as number[], alone: [] as number[], composing: [] as number[], bare: [] as number[] };
  for (let i = 0; i < 3; i++) {
    times.alone.push((await alone()).wallMs);
    times.ours.push((await ours()).wallMs);
    times.command.push((await command()).wallMs);
    times.composing.push((await composing()).wallMs);
    times.bare.push((await bare()).wallMs);
  }
  const [aloneMs, oursMs, commandMs, composingMs, bareMs] = [median(times.alone), median(times.ours), median(times.command), median(times.composing), median(times.bare)];
  const floorMs = bareMs + (composingMs - commandMs) + aloneMs;

  console.log(`6 slots x 3 cameras, ${width}x${height}, ${SECONDS} s at ${FPS} fps (${(statSync(out).size / 1024).toFixed(0)} KiB)\n`);
  const seconds = (ms: number) => (ms / 1000).toFixed(2).padStart(6);
  console.log(`${'ffmpeg alone, encoding the raw frames'.padEnd(40)} ${seconds(aloneMs)} s  ${(aloneMs / 1000 / SECONDS).toFixed(2)}x real time  baseline`);
  console.log(`${'cellwatch record (compose + encode)'.padEnd(40)} ${seconds(oursMs)} s  ${(oursMs / 1000 / SECONDS).toFixed(2)}x real time (goal: at most 0.3x); ${(oursMs / aloneMs).toFixed(2)}x ffmpeg alone (goal: at most 1.5x)`);
  console.log(`${'  of which the command before ffmpeg'.padEnd(40)} ${seconds(commandMs)} s  Node's start, the slots found in the root, the work folder`);
  console.log(`${'  and composing (no encoder after it)'.padEnd(40)} ${seconds(composingMs - commandMs)} s  the filter graph on ffmpeg's one thread`);
  console.log(`${'floor: start, compose, encode'.padEnd(40)} ${seconds(floorMs)} s  ${(floorMs / aloneMs).toFixed(2)}x ffmpeg alone: Node's bare start (${seconds(bareMs).trim()} s), composing, encoding alone, one after the other; cellwatch record is ${(oursMs / floorMs).toFixed(2)}x it`);
  console.log(`(medians of 3 runs taken in turn; the runs: ffmpeg alone ${times.alone.map((ms) => seconds(ms).trim()).join(', ')} s, cellwatch record ${times.ours.map((ms) => seconds(ms).trim()).join(', ')} s)`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
