import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { listCellsAt, withPlaces } from './places';
import { compareSlots } from '../compare/slots';
import { findFfmpeg } from '../record/ffmpeg';
import { recordSlots } from '../record/slots';
import { UsageError, type Io } from './io';
import { SlotError } from '../../shared/errors';

export const RECORD_HELP = `cellwatch record --compare "s1:v008,s2:last" [--seed N] [--seconds S] [--fps F] -o out.mp4 ROOT...

Records up to six policy versions side by side on one seed to an H.264 mp4, with no window: each
slot's cameras in a row under a label (session, version, seed, outcome), a shorter slot holding its
last frame. A session is the name of a cell that keeps policy versions, or a path substring naming one;
a version is vNNN, NNN, last or submission. Frames come from replays/vNNN/<seed>/ or dev/vNNN/<seed>/. Without
--seed, the first seed every slot has frames for. A ROOT may be on an SSH host (ALIAS:/abs/path): its
frames are fetched over one connection. ffmpeg: CELLWATCH_FFMPEG, else the system's, else the bundled one.`;

export async function record(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      compare: { type: 'string' },
      seed: { type: 'string' },
      seconds: { type: 'string' },
      fps: { type: 'string', default: '25' },
      output: { type: 'string', short: 'o' },
    },
  });
  if (!values.compare || !values.output || positionals.length === 0) throw new UsageError(`--compare, -o and at least one ROOT are required\n\n${RECORD_HELP}`);
  const fps = Number(values.fps);
  if (!(fps > 0 && fps <= 120)) throw new UsageError(`--fps must be a number from 1 to 120, not ${values.fps}`);
  const ffmpeg = findFfmpeg();
  const { result, comparison, seconds } = await withPlaces({}, async (places) => {
    const { cells } = await listCellsAt(places, positionals);
    const comparison = await compareSlots(values.compare as string, values.seed, cells, places.contextOf).catch((error: Error) => {
      throw new UsageError(error.message);
    });
    const longest = comparison.slots.reduce((most, s) => s.frames.cameras.reduce((m, c) => Math.max(m, c.urls.length), most), 0);
    const seconds = values.seconds === undefined ? Math.max(1 / fps, longest / 25) : Number(values.seconds);
    if (!(seconds > 0)) throw new UsageError(`--seconds must be a positive number, not ${values.seconds}`);
    let shown = -1;
    const result = await recordSlots(ffmpeg, comparison, cells, places.contextOf, { seconds, fps, out: resolve(values.output as string) }, (fraction) => {
      const tenth = Math.floor(fraction * 10);
      if (tenth > shown) {
        shown = tenth;
        io.err(`recording ${tenth * 10}%`);
      }
    }).catch((error: Error) => {
      // A slot without frames for the seed is the command's mistake, as an unknown slot is.
      throw error instanceof SlotError ? new UsageError(error.message) : error;
    });
    return { result, comparison, seconds };
  });
  if (result.note) io.err(result.note);
  io.out(`${result.out}: ${comparison.slots.length} slots on seed ${comparison.seed}, ${seconds} s at ${fps} fps`);
  return 0;
}
