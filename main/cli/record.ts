import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { summaryOf } from '../../runners/read';
import { localContext, readCellsAt } from '../cells';
import { compareSlots } from '../compare/slots';
import { parseRemote } from '../ssh/config';
import { slotInputs } from '../record/compose';
import { findFfmpeg } from '../record/ffmpeg';
import { recordComparison } from '../record/record';
import { UsageError, type Io } from './io';

export const RECORD_HELP = `cellwatch record --compare "s1:v008,s2:last" [--seed N] [--seconds S] [--fps F] -o out.mp4 ROOT...

Records up to six policy versions side by side on one seed to an H.264 mp4, with no window: each
slot's cameras in a row under a label (session, version, seed, outcome), a shorter slot holding its
last frame. A session is a bigym-agent cell's name or a path substring naming one cell; a version is
vNNN, NNN, last or submission. Frames come from replays/vNNN/<seed>/ or dev/vNNN/<seed>/. Without
--seed, the first seed every slot has frames for. ffmpeg: CELLWATCH_FFMPEG, else the system's, else
the bundled one.`;

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
  const ctx = localContext();
  if (positionals.some((p) => parseRemote(p))) throw new UsageError('record reads frames from this machine: give local runs roots');
  const cells = (await readCellsAt(positionals)).map((read) => summaryOf(read, ''));
  const comparison = await compareSlots(values.compare, values.seed, cells, ctx).catch((error: Error) => {
    throw new UsageError(error.message);
  });
  const longest = Math.max(...comparison.slots.map((s) => Math.max(...s.frames.cameras.map((c) => c.urls.length))));
  const seconds = values.seconds === undefined ? Math.max(1 / fps, longest / 25) : Number(values.seconds);
  if (!(seconds > 0)) throw new UsageError(`--seconds must be a positive number, not ${values.seconds}`);
  const paths = new Map(cells.map((c) => [c.id, c.path]));
  const slots = slotInputs(comparison, (id) => paths.get(id) as string);
  let shown = -1;
  const result = await recordComparison(ffmpeg, slots, { seconds, fps, out: resolve(values.output) }, (fraction) => {
    const tenth = Math.floor(fraction * 10);
    if (tenth > shown) {
      shown = tenth;
      io.err(`recording ${tenth * 10}%`);
    }
  });
  if (result.note) io.err(result.note);
  io.out(`${result.out}: ${comparison.slots.length} slots on seed ${comparison.seed}, ${seconds} s at ${fps} fps`);
  return 0;
}
