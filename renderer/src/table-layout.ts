import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** What a user changed of a table's columns: the ones hidden, and widths dragged (px). Kept per table. */
export interface ColumnPrefs {
  hidden: string[];
  widths: Record<string, number>;
}

export interface SizedColumn<R> {
  key: string;
  title: string;
  /** A fixed width in px, for a column drawn rather than written (a bar, a badge). */
  widthPx?: number;
  /** The text the column shows for a row: the column is as wide as the longest, its header's included. */
  fit?: (row: R) => string;
  /** Takes what the others leave, never less than its content up to GROW_MIN_CH. */
  grow?: boolean;
  /** Cannot be hidden (the column that names the row). */
  always?: boolean;
  /** Never narrower than its content (a pill, which an ellipsis would cut in two). */
  whole?: boolean;
  /** What it may give way down to, in px, instead of its header's width (or GROW_MIN_PX when it grows). */
  minPx?: number;
  /** Left out (fittedLayout) when the table leaves it less than this, in px: a sliver nobody can read. */
  dropBelowPx?: number;
  /** Gives way before every other column (an episode's note, before the ids that tell the rows apart). */
  yieldsFirst?: boolean;
}

/** A written column never takes more than this, unless dragged wider. */
const MAX_PX = 320;
/** The growing column's content is held to this much before the others give way to it... */
const GROW_MAX_PX = 520;
/** ...and it keeps at least this much when the table is narrow (its ids cut to fit). */
const GROW_MIN_PX = 130;
/** Room for the sort mark beside a header. */
const SORT_PX = 14;
/** Room around a cell's text. */
const PAD_PX = 8;
/** `.grid-row`'s column gap and padding, in px. */
const GAP_PX = 6;
const PADDING_PX = 12;
/** How many of a column's longest texts (by characters) are measured: the widest is among them. */
const MEASURED = 3;
/** Without a measure (nothing rendered yet, or a test's DOM), a character is taken as this wide. */
const CHAR_PX = 8;

const EMPTY: ColumnPrefs = { hidden: [], widths: {} };
const storageKey = (table: string) => `cellwatch.columns.${table}`;

function load(table: string): ColumnPrefs {
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey(table)) ?? 'null') as Partial<ColumnPrefs> | null;
    return { hidden: Array.isArray(saved?.hidden) ? saved.hidden.filter((k) => typeof k === 'string') : [], widths: typeof saved?.widths === 'object' && saved.widths !== null ? saved.widths : {} };
  } catch {
    return EMPTY;
  }
}

/** A table's column preferences, remembered in this browser's storage under the table's name. */
export function useColumnPrefs(table: string): [ColumnPrefs, { toggle(key: string): void; resize(key: string, px: number | null): void }] {
  const [prefs, setPrefs] = useState(() => load(table));
  const update = useCallback(
    (change: (prefs: ColumnPrefs) => ColumnPrefs) =>
      setPrefs((current) => {
        const next = change(current);
        localStorage.setItem(storageKey(table), JSON.stringify(next));
        return next;
      }),
    [table],
  );
  const toggle = useCallback((key: string) => update((p) => ({ ...p, hidden: p.hidden.includes(key) ? p.hidden.filter((k) => k !== key) : [...p.hidden, key] })), [update]);
  const resize = useCallback(
    (key: string, px: number | null) =>
      update((p) => {
        const widths = { ...p.widths };
        if (px === null) delete widths[key];
        else widths[key] = px;
        return { ...p, widths };
      }),
    [update],
  );
  return [prefs, { toggle, resize }];
}

export function visibleColumns<C extends SizedColumn<never>>(columns: C[], prefs: ColumnPrefs): C[] {
  return columns.filter((c) => c.always || !prefs.hidden.includes(c.key));
}

/** The table's width in px, and how wide a text is drawn in its font: what a layout is computed for. */
export interface Room {
  px: number;
  textPx(text: string): number;
}

export interface ColumnLayout {
  /** The grid's `grid-template-columns`. */
  template: string;
  /** Each column's width in whole px, rounded up (a text is not cut by a fraction of one), in the columns' order: a table's `<col>`s. */
  widths: number[];
  /** How many characters each column holds, by key (a written column's, as its longest text is drawn); null where not measured. */
  chars: Record<string, number | null>;
}

interface Want {
  want: number;
  min: number;
  grow: boolean;
  /** The drawn width of one character of the column's longest text. */
  charPx: number;
  /** Gives way before the others (SizedColumn.yieldsFirst). */
  first?: boolean;
}

/** The longest few texts, by characters: one pass, whatever the rows. */
function longest(texts: Iterable<string>): string[] {
  const top: string[] = [];
  for (const text of texts) {
    if (top.length === MEASURED && text.length <= (top[MEASURED - 1] as string).length) continue;
    top.push(text);
    top.sort((a, b) => b.length - a.length);
    top.length = Math.min(top.length, MEASURED);
  }
  return top;
}

/** Each row set's longest texts by column key: a table measured again (its room changed) does not read every row again. */
const longestTexts = new WeakMap<readonly unknown[], Map<string, string[]>>();

function longestOf<R>(rows: R[], key: string, fit: (row: R) => string): string[] {
  let byKey = longestTexts.get(rows);
  if (!byKey) longestTexts.set(rows, (byKey = new Map()));
  let texts = byKey.get(key);
  if (!texts) byKey.set(key, (texts = longest(rows.map(fit))));
  return texts;
}

/** What each column would take (px) and what it can give way down to. */
function wants<R>(columns: SizedColumn<R>[], rows: R[], prefs: ColumnPrefs, textPx: (text: string) => number): Want[] {
  return columns.map((column) => {
    const header = textPx(column.title) + SORT_PX + PAD_PX;
    const fixed = prefs.widths[column.key] ?? column.widthPx;
    if (fixed !== undefined || !column.fit) {
      const px = fixed ?? header;
      // A drawn column gives way as a written one does, down to its header's width; a dragged one keeps its width.
      return { want: px, min: column.key in prefs.widths ? px : Math.min(px, header), grow: false, charPx: CHAR_PX };
    }
    const texts = longestOf(rows, column.key, column.fit);
    const widest = texts.reduce((most, text) => Math.max(most, textPx(text)), 0);
    const charPx = texts[0] ? textPx(texts[0]) / Math.max(1, texts[0].length) : CHAR_PX;
    const content = Math.max(header, widest + PAD_PX);
    if (column.grow) return { want: Math.min(content, GROW_MAX_PX), min: Math.min(content, column.minPx ?? GROW_MIN_PX), grow: true, charPx, ...(column.yieldsFirst ? { first: true } : {}) };
    const want = Math.min(content, MAX_PX);
    return { want, min: column.whole ? want : Math.min(want, column.minPx ?? header), grow: false, charPx };
  });
}

/**
 * Each column's width: dragged, else its content's where the table has room. Short of room, the written
 * and drawn columns give way first (down to their headers' width: written cells then end in an ellipsis
 * and say the whole value on hover, a bar is drawn shorter), the growing one last (its ids then cut to
 * fit). The growing column takes whatever is left over.
 */
export function columnLayout<R>(columns: SizedColumn<R>[], rows: R[], prefs: ColumnPrefs, room: Room | null): ColumnLayout {
  const sized = wants(columns, rows, prefs, room?.textPx ?? ((text) => text.length * CHAR_PX));
  const widths = sized.map((w) => w.want);
  let short = widths.reduce((a, b) => a + b, 0) - ((room?.px ?? Number.POSITIVE_INFINITY) - PADDING_PX - GAP_PX * (columns.length - 1));
  // Who gives way, in turn: a column that yields first, then the written and drawn ones, the growing one last.
  const turns: ((w: Want) => boolean)[] = [(w) => w.first === true, (w) => !w.grow && !w.first, (w) => w.grow && !w.first];
  for (const inTurn of turns) {
    const slack = sized.reduce((sum, w) => sum + (inTurn(w) ? w.want - w.min : 0), 0);
    if (short <= 0 || slack <= 0) continue;
    const share = Math.min(1, short / slack);
    sized.forEach((w, i) => {
      if (inTurn(w)) widths[i] = w.want - (w.want - w.min) * share;
    });
    short -= slack * share;
  }
  const template = widths.map((px, i) => (sized[i]?.grow ? `minmax(${Math.floor(px)}px, 1fr)` : `${Math.floor(px)}px`)).join(' ');
  const chars = Object.fromEntries(columns.map((c, i) => [c.key, room ? Math.floor(((widths[i] as number) - PAD_PX) / (sized[i] as Want).charPx) : null]));
  return { template, widths: widths.map(Math.ceil), chars };
}

/**
 * The columns drawn and their layout: a column the table leaves less than its `dropBelowPx` is left out
 * (still offered in the columns menu), and the others laid out in the room it had.
 */
export function fittedLayout<R, C extends SizedColumn<R>>(columns: C[], rows: R[], prefs: ColumnPrefs, room: Room | null): { drawn: C[]; layout: ColumnLayout } {
  const layout = columnLayout(columns, rows, prefs, room);
  const drawn = columns.filter((c, i) => c.dropBelowPx === undefined || (layout.widths[i] as number) >= c.dropBelowPx);
  return drawn.length === columns.length ? { drawn, layout } : { drawn, layout: columnLayout(drawn, rows, prefs, room) };
}

/**
 * The element's width, followed as it resizes, and a measure of text in its font; null until measured
 * (or where nothing can measure). `shown`: whether the element is rendered now (it is measured once it is).
 */
export function useRoom(ref: RefObject<HTMLElement | null>, shown: boolean): Room | null {
  const [room, setRoom] = useState<Room | null>(null);
  useEffect(() => {
    const element = ref.current;
    const context = typeof ResizeObserver === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (!element || !context) return;
    // From its parts: the `font` shorthand reads empty where a part has no place in it (tabular numerals), and a canvas then measures in 10px sans-serif.
    const style = getComputedStyle(element);
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const widths = new Map<string, number>();
    const textPx = (text: string) => {
      let px = widths.get(text);
      if (px === undefined) widths.set(text, (px = context.measureText(text).width));
      return px;
    };
    const observer = new ResizeObserver(() => setRoom({ px: element.clientWidth, textPx }));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, shown]);
  return room;
}

/** How often a live table's widths are taken again from its rows: a 10,000-row table's texts take tens of ms. */
export const LAYOUT_SAMPLE_MS = 2000;

/**
 * The value as it was at most `ms` ago: a live list sampled, so that work over all its rows (measuring
 * their texts for widths) runs at most that often, not on every change.
 */
export function useSampled<T>(value: T, ms: number): T {
  const [sampled, setSampled] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const take = () => {
      last.current = Date.now();
      setSampled(value);
    };
    const wait = last.current + ms - Date.now();
    if (wait <= 0) return take();
    const timer = setTimeout(take, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return sampled;
}
