import { parseArgs } from 'node:util';
import { readSideAt, withPlaces } from './places';
import { outJson, UsageError, type Io } from './io';
import { table } from './table';
import { wrapped } from './help-text';
import { CELL_SIDES, PAIRED_UNITS } from './pairing';

export const EPISODES_HELP = `cellwatch episodes [--json] [--accept-new-host-key] CELL

${wrapped(`The cell's units that a paired test pairs: ${PAIRED_UNITS}. CELL is named as mcnemar names a side: ${CELL_SIDES}.`)}
  --json   {"cell": id, "episodes": [{"id", "status", "success", "scored"}]}`;

export async function episodes(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, 'accept-new-host-key': { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new UsageError(`name exactly one cell\n\n${EPISODES_HELP}`);
  const side = await withPlaces({ acceptNewHostKey: values['accept-new-host-key'] }, (places) => readSideAt(places, positionals[0] as string));
  if (values.json) {
    outJson(io, { cell: side.id, episodes: side.units }, 2);
    return 0;
  }
  const success = (s: boolean | null) => (s === null ? '-' : s ? 'yes' : 'no');
  io.out(table(['EPISODE', 'STATUS', 'SCORED', 'SUCCESS'], side.units.map((u) => [u.id, u.status, u.scored ? 'yes' : 'excluded', success(u.success)])));
  return 0;
}
