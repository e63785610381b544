// Ids cut to fit a column, each still told apart from the others: what a cell list at 1024 px shows of
// names like std_cli_demo-model_bare_default and std_sdk_demo-model_bare_default.
import { useCallback, useMemo } from 'react';

/** The text cut in its middle to `max` characters: both ends of an id stay readable. */
export function middleCut(text: string, max: number): string {
  if (text.length <= max || max < 5) return text;
  const head = Math.ceil((max - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

/** The length of the start two texts share. */
const common = (a = '', b = '') => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
};

/** Where each text first differs from the most alike of the others (the length of their common start). */
export function differences(texts: readonly string[]): Map<string, number> {
  const sorted = [...new Set(texts)].sort();
  return new Map(sorted.map((text, i) => [text, Math.max(common(text, sorted[i - 1]), common(text, sorted[i + 1]))]));
}

/**
 * An id cut to `max` characters so that it stays told apart from its alikes: the start it shares with
 * them (from the last `_`, `-`, `.` or `/` before they differ) gives way first, then the middle.
 */
export function distinctCut(text: string, max: number, differsAt: number): string {
  if (text.length <= max || max < 5) return text;
  if (differsAt < max / 2) return middleCut(text, max);
  const boundary = ['_', '-', '.', '/'].reduce((last, c) => Math.max(last, text.lastIndexOf(c, differsAt - 1)), -1);
  const rest = text.slice(boundary >= 0 ? boundary + 1 : differsAt);
  return `…${middleCut(rest, max - 1)}`;
}

/** Where a name's parts (its runs between `_`, `-`, `.` and `/`) start and end. */
function parts(text: string): { start: number; end: number }[] {
  return [...text.matchAll(/[^_\-./]+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/**
 * The name shown as the parts holding `spots` (where it differs from the names it would read like),
 * joined as they are where they are neighbours, an ellipsis for each run of parts left out.
 */
function spotsCut(text: string, spots: number[]): string {
  const kept = parts(text).filter((p) => spots.some((at) => at >= p.start && at < p.end));
  if (kept.length === 0) return text;
  let out = '';
  let at = 0;
  for (const part of kept) {
    const between = text.slice(at, part.start);
    out += at === 0 && part.start === 0 ? '' : parts(between).length ? '…' : between;
    out += text.slice(part.start, part.end);
    at = part.end;
  }
  return at < text.length ? `${out}…` : out;
}

/**
 * Each name cut to at most `max` characters (distinctCut), and where two names would then read the same,
 * each of them cut again to the parts where it differs from the others that read like it (and from its
 * nearest alike): `std_cli_demo-model_bare_default` and `std_sdk_demo-model_bare_default` both read
 * `…bare_default` at 14 characters, and read `std_cli…bare…` and `std_sdk…bare…` instead. A name whose cut
 * would hide where it differs, or still read like another's, is not cut at all: longer than `max`, it is
 * whole on two lines (twoLines).
 */
export function nameCuts(names: readonly string[], max: number): Map<string, string> {
  const at = differences(names);
  const cuts = new Map([...at.keys()].map((name) => [name, distinctCut(name, max, at.get(name) ?? 0)]));
  const alike = new Map<string, string[]>();
  for (const [name, cut] of cuts) alike.set(cut, [...(alike.get(cut) ?? []), name]);
  for (const group of alike.values()) {
    if (group.length < 2) continue;
    group.sort();
    group.forEach((name, i) => {
      const neighbours = [group[i - 1], group[i + 1]].filter((other) => other !== undefined);
      const spots = [at.get(name) ?? 0, ...neighbours.map((other) => common(name, other))];
      // With its start where that fits: std_cli…bare…, else …cli…bare…
      const cut = [spotsCut(name, [0, ...spots]), spotsCut(name, spots)].find((c) => c.length <= max);
      // Where the parts it differs in do not fit, a cut of the middle would hide them: it is shown whole.
      cuts.set(name, cut ?? twoLines(name, max));
    });
  }
  // A cut another name also reads as (`std_cli…bare_default` of std_cli_claude-9-opus_bare_default beside
  // std_cli_gpt-6-luna_bare_default) says too little: that name is shown whole. A name can only read as a
  // cut if it ends as the cut's end does (or begins as its start does): only those are looked at.
  const byEnd = new Map<string, string[]>();
  const byStart = new Map<string, string[]>();
  for (const name of cuts.keys()) {
    for (const [index, key] of [[byEnd, name.slice(-ANCHOR)], [byStart, name.slice(0, ANCHOR)]] as const) {
      const there = index.get(key);
      if (there) there.push(name);
      else index.set(key, [name]);
    }
  }
  const all = [...cuts.keys()];
  const candidates = (pieces: readonly string[]) => {
    const [first, last] = [pieces[0] as string, pieces.at(-1) as string];
    if (last.length >= ANCHOR) return byEnd.get(last.slice(-ANCHOR)) ?? [];
    if (first.length >= ANCHOR) return byStart.get(first.slice(0, ANCHOR)) ?? [];
    return all;
  };
  for (const [name, cut] of cuts) {
    if (cut === name) continue;
    const pieces = cut.split('…');
    if (candidates(pieces).some((other) => other !== name && piecesRead(pieces, other))) cuts.set(name, twoLines(name, max));
  }
  return cuts;
}

/** How many characters of a cut's end (or start) pick the names that could read as it. */
const ANCHOR = 3;

/** Whether `name` reads as `cut`: its kept pieces, in order, with an ellipsis wherever some of it was left out. */
export const readsAs = (cut: string, name: string): boolean => piecesRead(cut.split('…'), name);

/** readsAs of a cut already split at its ellipses (a cut is checked against each of its candidates). */
function piecesRead(pieces: readonly string[], name: string): boolean {
  const first = pieces[0] as string;
  const last = pieces.at(-1) as string;
  if (pieces.length === 1) return first === name;
  if (!name.startsWith(first) || !name.endsWith(last) || first.length + last.length > name.length) return false;
  let at = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] as string;
    const found = name.indexOf(piece, at);
    if (found < 0 || found + piece.length > name.length - last.length) return false;
    at = found + piece.length;
  }
  return true;
}

/** A name whole: on two lines (a newline after the separator nearest its middle) where it is longer than `max`. */
export function twoLines(name: string, max: number): string {
  if (name.length <= max) return name;
  // After the separator nearest the middle; a name with none breaks at its middle.
  const middle = name.length / 2;
  const at = [...name.matchAll(/[_\-./]/g)].map((m) => m.index + 1).reduce((best, b) => (Math.abs(b - middle) < Math.abs(best - middle) ? b : best), Infinity);
  const cut = Number.isFinite(at) ? at : Math.ceil(middle);
  return `${name.slice(0, cut)}\n${name.slice(cut)}`;
}

/**
 * A column's ids as it holds them now: each of the sampled rows' (`idOf`, a function that stays the same)
 * cut to `chars` by nameCuts, a row newer than the sample cut in its middle until the next; whole where
 * `chars` is not known.
 */
export function useNameCuts<T>(sampled: readonly T[], idOf: (row: T) => string, chars: number | null): (id: string) => string {
  // idOf stays the same (a module's function): not a dependency.
  const cuts = useMemo(() => (chars === null ? null : nameCuts(sampled.map(idOf), chars)), [sampled, chars]);
  return useCallback((id: string) => (chars === null ? id : (cuts?.get(id) ?? middleCut(id, chars))), [chars, cuts]);
}
