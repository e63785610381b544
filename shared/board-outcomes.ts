// Each on-board cell's episodes as bit sets, and a pair's paired counts from them: a board of 10,000
// cells pairs a million units without a loop over each pair's episodes.
import { withRoom } from './arrays';
import { eachUnit } from './units';

/**
 * Each cell's episodes as three bit sets over one numbering of every episode id the cells hold (cell i's
 * words from `i * words`): ended, scored (ended and counted), succeeded (scored and a success). A pair's
 * counts are then a few popcounts a word, not a loop over its episodes.
 */
export interface Outcomes {
  words: number;
  ended: Int32Array;
  scored: Int32Array;
  succeeded: Int32Array;
}

/** The set bits of a 32-bit word. */
function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * The paired counts of cells i and j over the episodes both scored (as shared/mcnemar's pairUnits pairs them),
 * and how many ended on one side only, written into `found` from `at` in that order.
 */
export function pairCounts(o: Outcomes, i: number, j: number, found: Int32Array, at: number): void {
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  let neither = 0;
  let leftOut = 0;
  for (let w = 0; w < o.words; w++) {
    const a = i * o.words + w;
    const b = j * o.words + w;
    const scored = (o.scored[a] as number) & (o.scored[b] as number);
    const winA = (o.succeeded[a] as number) & scored;
    const winB = (o.succeeded[b] as number) & scored;
    both += popcount(winA & winB);
    onlyA += popcount(winA & ~winB);
    onlyB += popcount(winB & ~winA);
    neither += popcount(scored & ~(winA | winB));
    leftOut += popcount((o.ended[a] as number) ^ (o.ended[b] as number));
  }
  found[at] = both;
  found[at + 1] = onlyA;
  found[at + 2] = onlyB;
  found[at + 3] = neither;
  found[at + 4] = leftOut;
}

/** The number an id of a few digits writes (`"17"`), or -1 for any other id (`"017"`, `"task#2"`): most boards number their episodes. */
function smallNumber(text: string, start: number, end: number): number {
  if (end - start > 6 || end === start || (text.charCodeAt(start) === 48 && end - start > 1)) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Each cell's outcomes over one numbering of every episode id the cells hold, in the cells' order (one pass over their units). */
export function outcomesOf(entries: readonly { units: string }[]): Outcomes {
  const index = new Map<string, number>();
  // Numbered ids by their number: a million units are then read without a string or a Map lookup each.
  const numbered: number[] = [];
  // Every cell's units in one list, as (episode number) * 4 + (1 ended, 2 scored, 3 succeeded): cell i's from starts[i].
  let units = new Int32Array(1 << 16);
  let length = 0;
  const starts = new Int32Array(entries.length + 1);
  entries.forEach((e, i) => {
    starts[i] = length;
    eachUnit(e.units, (start, end, success, scored) => {
      const number = smallNumber(e.units, start, end);
      let k = number >= 0 ? numbered[number] : undefined;
      if (k === undefined) {
        const id = e.units.slice(start, end);
        k = index.get(id);
        if (k === undefined) index.set(id, (k = index.size));
        if (number >= 0) numbered[number] = k;
      }
      units = withRoom(units, length + 1);
      units[length++] = k * 4 + (!scored ? 1 : success === '1' ? 3 : 2);
    });
  });
  starts[entries.length] = length;
  const words = Math.ceil(index.size / 32);
  const outcomes = { words, ended: new Int32Array(entries.length * words), scored: new Int32Array(entries.length * words), succeeded: new Int32Array(entries.length * words) };
  for (let i = 0; i < entries.length; i++) {
    for (let u = starts[i] as number; u < (starts[i + 1] as number); u++) {
      const unit = units[u] as number;
      const k = unit >>> 2;
      const at = i * words + (k >>> 5);
      const bit = 1 << (k & 31);
      outcomes.ended[at] = (outcomes.ended[at] as number) | bit;
      if ((unit & 3) >= 2) outcomes.scored[at] = (outcomes.scored[at] as number) | bit;
      if ((unit & 3) === 3) outcomes.succeeded[at] = (outcomes.succeeded[at] as number) | bit;
    }
  }
  return outcomes;
}
