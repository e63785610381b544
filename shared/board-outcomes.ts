// Each on-board cell's episodes as bit sets, and a pair's paired counts from them: a board of 10,000
// cells pairs a million units without a loop over each pair's episodes.
import { withRoom } from './arrays';

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

/** Each cell's outcomes over one numbering of every episode id the cells hold, in the cells' order (one pass over their units). */
export function outcomesOf(entries: readonly { units: string }[]): Outcomes {
  const index = new Map<string, number>();
  // Numbered ids (a few digits, no leading zero: "17", not "017") by their number: most boards number their
  // episodes, and a million units are then read without a string or a Map lookup each.
  const numbered: number[] = [];
  // Every cell's units in one list, as (episode number) * 4 + (1 ended, 2 scored, 3 succeeded): cell i's from starts[i].
  let units = new Int32Array(1 << 16);
  let length = 0;
  const starts = new Int32Array(entries.length + 1);
  entries.forEach(({ units: text }, i) => {
    starts[i] = length;
    // shared/units.ts's lines (id TAB success scored), read a character at a time: a unit is at least 4 of them.
    units = withRoom(units, length + (text.length >> 2) + 1);
    for (let at = 0; at < text.length; ) {
      const start = at;
      let number = 0;
      let c = text.charCodeAt(at);
      while (c >= 48 && c <= 57) {
        number = number * 10 + c - 48;
        c = text.charCodeAt(++at);
      }
      const digits = at - start;
      if (digits === 0 || digits > 6 || (digits > 1 && text.charCodeAt(start) === 48) || c !== 9) {
        number = -1;
        at = text.indexOf('\t', at);
      }
      let k = number >= 0 ? numbered[number] : undefined;
      if (k === undefined) {
        const id = text.slice(start, at);
        k = index.get(id);
        if (k === undefined) index.set(id, (k = index.size));
        if (number >= 0) numbered[number] = k;
      }
      // After the tab: success (1, 0 or -), scored (1 or 0), then a newline or the end.
      units[length++] = k * 4 + (text.charCodeAt(at + 2) !== 49 ? 1 : text.charCodeAt(at + 1) === 49 ? 3 : 2);
      at += 4;
    }
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
