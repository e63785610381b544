// What a paired test pairs, as the help of `episodes` and `mcnemar` says it: each format's own words
// (FormatAdapter.pairing), so a format added is in the help with no command changed.
import { ADAPTERS } from '../../runners';

const pairings = Object.values(ADAPTERS).map((adapter) => adapter.pairing);

/** Each format's paired units, in one list. */
export const PAIRED_UNITS = pairings.map((p) => p.units).join(', ');

/** Each way a side of a test is named inside a cell (CELL@vNNN, FILE@AGENT), in one list. */
export const CELL_SIDES = pairings.flatMap((p) => (p.side ? [p.side] : [])).join(', ');
