import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyDemo } from '../../runners/demo/copy';
import { copyInstantDemo } from '../../runners/demo/testing';
import { restoreEnv, tempDir } from '../../runners/testing';
import { runCli } from '../cli/run';
import { capture } from '../cli/testing';
import { findFfmpeg } from './ffmpeg';
import { recordComparison } from './record';
import { findFfprobe } from './testing';

let tmp: ReturnType<typeof tempDir>;
let runs: string;
const saved = { ...process.env };


/** RGB bytes of a PNG the demo wrote (8-bit RGB, filter 0). */
function png(file: string): Buffer {
  const bytes = readFileSync(file);
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const chunks: Buffer[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('ascii', at + 4, at + 8) === 'IDAT') chunks.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  return Buffer.concat(Array.from({ length: height }, (_, y) => raw.subarray(y * (width * 3 + 1) + 1, (y + 1) * (width * 3 + 1))));
}

beforeAll(async () => {
  tmp = tempDir();
  runs = join(tmp.path, 'runs');
  copyInstantDemo(runs);
  copyDemo(join(runs, 'cartpole_balance'), join(runs, 'copies', 'cartpole_balance_b'));
});
afterAll(() => {
  restoreEnv(saved);
  tmp.remove();
});

describe('cellwatch record', () => {
  it('writes a valid H.264 mp4 of the grid, a row per slot, at least 720 px high: codec, frame count, duration, size', async () => {
    const out = join(tmp.path, 'four.mp4');
    const { io } = capture();
    expect(await runCli(['record', '--compare', 'cartpole_balance:v001,cartpole_balance:2,copies/cartpole:v003,cartpole_balance:last', '--seed', '900001', '--seconds', '1', '--fps', '25', '-o', out, runs], io)).toBe(0);
    const probe = JSON.parse(
      execFileSync(findFfprobe(), ['-v', 'error', '-select_streams', 'v:0', '-count_frames', '-show_entries', 'stream=codec_name,width,height,nb_read_frames,pix_fmt:format=duration', '-of', 'json', out], { encoding: 'utf8' }),
    );
    // The timecode's 28 px strip, then four rows of three 84 px cameras drawn at twice their size, each under a 48 px label band.
    expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', width: 3 * 168, height: 28 + 4 * (48 + 168), nb_read_frames: '25', pix_fmt: 'yuv420p' });
    expect(Number(probe.format.duration)).toBeCloseTo(1, 1);
  });

  describe('two slots', () => {
    // Two rows: frames drawn at four times their size (336 px) so the video is 28 + 2 x (48 + 336) = 796 px high.
    const [header, tile, band, width] = [28, 336, 48, 3 * 336];
    const height = header + 2 * (band + tile);
    /** Where slot `slot`'s band begins. */
    const top = (slot: number) => header + slot * (band + tile);
    let frames: Buffer[];
    beforeAll(async () => {
      const out = join(tmp.path, 'two.mp4');
      const { io } = capture();
      expect(await runCli(['record', '--compare', 'cartpole_balance:v001,cartpole_balance:v004', '--seed', '900001', '--seconds', '1.3', '-o', out, runs], io)).toBe(0);
      frames = [10, 30].map((n) => execFileSync(findFfmpeg(), ['-v', 'error', '-i', out, '-vf', `select=eq(n\\,${n})`, '-vframes', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 16 << 20 }));
    });
    const pixel = (frame: Buffer, x: number, y: number) => [0, 1, 2].map((c) => frame[(y * width + x) * 3 + c] as number);
    /** How many pixels of a box are within `tolerance` of a colour. */
    const near = (frame: Buffer, [x0, y0, x1, y1]: number[], colour: number[], tolerance = 60) => {
      let count = 0;
      for (let y = y0 as number; y < (y1 as number); y++) for (let x = x0 as number; x < (x1 as number); x++) if (pixel(frame, x, y).every((v, c) => Math.abs(v - (colour[c] as number)) < tolerance)) count++;
      return count;
    };

    it('draws each source frame where the grid puts it, within a small tolerance', () => {
      const [frame] = frames as [Buffer];
      expect(frame.length).toBe(width * height * 3);
      for (const [slot, version] of [[0, 'v001'], [1, 'v004']] as const) {
        for (const [camera, name] of ['head', 'left_wrist', 'right_wrist'].entries()) {
          const source = png(join(runs, 'cartpole_balance', 'replays', version, '900001', name, `${String(10).padStart(6, '0')}.png`));
          let difference = 0;
          const rows = tile;
          for (let y = 0; y < rows; y++) {
            for (let x = 0; x < tile; x++) {
              const [r, g, b] = pixel(frame, camera * tile + x, top(slot) + band + y);
              const at = ((y >> 2) * 84 + (x >> 2)) * 3;
              difference += Math.abs((r as number) - source[at]!) + Math.abs((g as number) - source[at + 1]!) + Math.abs((b as number) - source[at + 2]!);
            }
          }
          expect(difference / (rows * tile * 3)).toBeLessThan(6);
        }
      }
    });

    it("labels each row with its slot, seed and outcome in the outcome's colour, each tile with its camera, and burns in the time", () => {
      const [first, later] = frames as [Buffer, Buffer];
      // v001 failed on this seed (red text), v004 succeeded (green), on the first line of each band.
      const line = (slot: number) => [0, top(slot), 480, top(slot) + 24];
      expect(near(first, line(0), [0xe5, 0x53, 0x4b])).toBeGreaterThan(100);
      expect(near(first, line(1), [0x4c, 0xbf, 0x73])).toBeGreaterThan(100);
      expect(near(first, line(1), [0xe5, 0x53, 0x4b])).toBe(0);
      // Each camera's name on the band's second line, over its tile, and the same on every frame.
      for (const slot of [0, 1]) {
        for (const camera of [0, 1, 2]) {
          const name = [camera * tile, top(slot) + 26, camera * tile + 100, top(slot) + band];
          expect(near(first, name, [0xc9, 0xd1, 0xd9], 40)).toBeGreaterThan(20);
          expect(near(later, name, [0xc9, 0xd1, 0xd9], 40)).toBe(near(first, name, [0xc9, 0xd1, 0xd9], 40));
        }
      }
      // The timecode at the top right reads on: frames 10 and 30 differ there, and only in white.
      const clock = [width - 140, 0, width, header];
      expect(near(first, clock, [255, 255, 255], 40)).toBeGreaterThan(50);
      let changed = 0;
      for (let y = 0; y < header; y++) for (let x = width - 140; x < width; x++) if (pixel(first, x, y).some((v, c) => Math.abs(v - (pixel(later, x, y)[c] as number)) > 60)) changed++;
      expect(changed).toBeGreaterThan(20);
      // Nothing else moves in the strip: the labels below it are not drawn over.
      expect(near(first, [0, 0, width - 140, header], [255, 255, 255], 40)).toBe(0);
    });
  });

  it.each([
    ['nope:v001', 'no cell with policy versions is named or found by "nope"'],
    ['balance:v001', '"balance" is ambiguous'],
    ['cartpole_balance:v009', 'has no v009; it has v001, v002, v003, v004'],
    ['cartpole_balance', 'is not session:version'],
  ])('refuses the slot %s, saying why', async (slots, message) => {
    const { io, err } = capture();
    expect(await runCli(['record', '--compare', slots, '-o', join(tmp.path, 'x.mp4'), runs], io)).toBe(2);
    expect(err.join('\n')).toContain(message);
  });

  it('says which seeds have frames when the seed has none', async () => {
    const { io, err } = capture();
    expect(await runCli(['record', '--compare', 'cartpole_balance:v001', '--seed', '123', '-o', join(tmp.path, 'x.mp4'), runs], io)).toBe(2);
    expect(err.join('\n')).toContain('has no frames for seed 123');
    expect(err.join('\n')).toContain('seeds with frames: 620008, 900001, 900002');
  });

  it('reads a video as mp4 only: a playlist saved as .mp4 is refused, never followed', async () => {
    const secret = join(tmp.path, 'secret.txt');
    writeFileSync(secret, 'not for the recording');
    const cell = join(runs, 'playlist', 'cartpole_playlist');
    copyDemo(join(runs, 'cartpole_balance'), cell);
    const seed = join(cell, 'replays', 'v001', '900001');
    rmSync(seed, { recursive: true });
    mkdirSync(seed, { recursive: true });
    writeFileSync(join(seed, 'head.mp4'), `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile://${secret}\n#EXT-X-ENDLIST\n`);
    const { io, err } = capture();
    expect(await runCli(['record', '--compare', 'cartpole_playlist:v001', '--seed', '900001', '--seconds', '1', '-o', join(tmp.path, 'playlist.mp4'), runs], io)).toBe(1);
    expect(err.join('\n')).toContain('ffmpeg failed');
    rmSync(join(runs, 'playlist'), { recursive: true });
  });

  it('records a cell whose path and name hold ffmpeg\'s own syntax as plain text: % in its folder, %{e:while(1,1)} in its label', async () => {
    const cell = join(runs, '100%d', 'x%{e:while(1,1)}');
    copyDemo(join(runs, 'cartpole_balance'), cell);
    const out = join(tmp.path, 'percent.mp4');
    const { io, err, out: printed } = capture();
    // Before, drawtext expanded the label and spun at 100 % CPU for good, and image2 read the folder's % as a pattern.
    expect(await runCli(['record', '--compare', 'x%{e:while(1:v001', '--seed', '900001', '--seconds', '1', '-o', out, runs], io), err.join('\n')).toBe(0);
    const probe = execFileSync(findFfprobe(), ['-v', 'error', '-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', out], { encoding: 'utf8' });
    expect(probe.trim()).toBe('25');
    expect([...printed, ...err].join('\n')).not.toContain('labels left out');
    rmSync(join(runs, '100%d'), { recursive: true });
  });

  it("records with labels in a temporary folder whose path holds a filter's syntax (Windows' C:\\...\\Temp holds `:` and `\\`)", async () => {
    const odd = join(tmp.path, "temp: a,b;c [d] 'e' \\f");
    mkdirSync(odd, { recursive: true });
    process.env.TMPDIR = odd;
    try {
      const out = join(tmp.path, 'odd-temp.mp4');
      const { io, err, out: printed } = capture();
      expect(await runCli(['record', '--compare', 'cartpole_balance:v001', '--seed', '900001', '--seconds', '1', '-o', out, runs], io), err.join('\n')).toBe(0);
      expect([...printed, ...err].join('\n')).not.toContain('labels left out');
      const probe = execFileSync(findFfprobe(), ['-v', 'error', '-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', out], { encoding: 'utf8' });
      expect(probe.trim()).toBe('25');
    } finally {
      if (saved.TMPDIR === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved.TMPDIR;
    }
  });

  it('kills an ffmpeg that outlasts its deadline, SIGTERM or not', async () => {
    const stuck = join(tmp.path, 'stuck-ffmpeg');
    const pidFile = join(tmp.path, 'stuck.pid');
    writeFileSync(stuck, `#!/bin/sh\necho $$ > ${pidFile}\ntrap '' TERM\nexec sleep 60\n`, { mode: 0o755 });
    const slot = { label: 'a', outcome: 'unknown' as const, cameras: [{ name: 'head', frames: { dir: join(runs, 'cartpole_balance'), start: 0, count: 1, size: 84 } }] };
    await expect(recordComparison(stuck, [slot], { seconds: 1, fps: 25, out: join(tmp.path, 'stuck.mp4') }, undefined, 300)).rejects.toThrow('ffmpeg took longer than 0 s: stopped');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => { try { process.kill(pid, 0); return 'alive'; } catch { return 'gone'; } }).toBe('gone');
  });

  it('says so when there is no ffmpeg', async () => {
    process.env.CELLWATCH_FFMPEG = '/nonexistent/ffmpeg';
    const { io, err } = capture();
    expect(await runCli(['record', '--compare', 'cartpole_balance:v001', '-o', join(tmp.path, 'x.mp4'), runs], io)).toBe(1);
    expect(err.join('\n')).toContain('ffmpeg not found at /nonexistent/ffmpeg');
    restoreEnv(saved);
  });
});
