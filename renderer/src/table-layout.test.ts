import { describe, expect, it } from 'vitest';
import { columnLayout, fittedLayout, type SizedColumn } from './table-layout';

type Row = { name: string; kind: string; note: string };
const COLUMNS: SizedColumn<Row>[] = [
  { key: 'name', title: 'Name', grow: true, always: true, fit: (r) => r.name },
  { key: 'kind', title: 'Kind', fit: (r) => r.kind },
  { key: 'bar', title: 'Bar', widthPx: 50 },
  { key: 'note', title: 'Note', fit: (r) => r.note },
];
const ROWS: Row[] = [{ name: 'std_sdk_demo-model_bare_default', kind: 'coding-agent', note: '1.2M in · 300k out · est. $3.12' }];
const NONE = { hidden: [], widths: {} };
/** Text drawn 10 px a character. */
const TEN = (text: string) => text.length * 10;
const px = (template: string) => template.match(/\d+px/g)?.map((w) => Number.parseInt(w, 10));

describe('column widths', () => {
  it("give each column its content's width where there is room, the rest to the growing one", () => {
    // Each its longest text and 8 px around it; a header its text, 14 px for the sort mark and 8 around.
    expect(columnLayout(COLUMNS, ROWS, NONE, { px: 1200, textPx: TEN }).template).toBe('minmax(318px, 1fr) 128px 50px 318px');
  });

  it('short of room, take from the written columns first, down to their headers, then from the growing one', () => {
    // 700 px leave 670 (gaps 3 x 6, padding 12) for columns wanting 814: the written ones give 144 of
    // their 322 (in proportion), the name none.
    const narrow = columnLayout(COLUMNS, ROWS, NONE, { px: 700, textPx: TEN });
    expect(px(narrow.template)).toEqual([318, 98, 50, 203]);
    expect(narrow.chars.name).toBe(31);
    // 400 px: the written ones at their headers' width (62), the name gives the last 122 and holds 18 characters.
    const tight = columnLayout(COLUMNS, ROWS, NONE, { px: 400, textPx: TEN });
    expect(px(tight.template)).toEqual([196, 62, 50, 62]);
    expect(tight.chars.name).toBe(18);
  });

  it('short of room, draw a bar shorter, down to its header, as the written columns give way', () => {
    const wide = COLUMNS.map((c) => (c.key === 'bar' ? { ...c, widthPx: 90 } : c));
    // 400 px leave 370: the written ones at their headers (62), the bar at its header's (52), the name the 194 left.
    expect(px(columnLayout(wide, ROWS, NONE, { px: 400, textPx: TEN }).template)).toEqual([194, 62, 52, 62]);
    // Dragged, it keeps its width, and the name gives way instead.
    expect(px(columnLayout(wide, ROWS, { hidden: [], widths: { bar: 90 } }, { px: 400, textPx: TEN }).template)).toEqual([156, 62, 90, 62]);
  });

  it('keep a dragged width whatever the content', () => {
    expect(columnLayout(COLUMNS, ROWS, { hidden: [], widths: { kind: 77 } }, { px: 1200, textPx: TEN }).template).toBe('minmax(318px, 1fr) 77px 50px 318px');
  });
});

describe('columns fitted to their room', () => {
  // As the episodes table's: an id that gives way down to 60 px, a note that gives way whole, and is left out under 64 px.
  const EPISODES: SizedColumn<Row>[] = [
    { key: 'id', title: '#', always: true, minPx: 60, fit: (r) => r.name },
    { key: 'kind', title: 'Kind', fit: (r) => r.kind },
    { key: 'note', title: 'Note', grow: true, minPx: 0, dropBelowPx: 64, fit: (r) => r.note },
  ];
  const keys = (columns: SizedColumn<Row>[]) => columns.map((c) => c.key);

  it('draws every column while the one that may be left out keeps its least width', () => {
    const roomy = fittedLayout(EPISODES, ROWS, NONE, { px: 300, textPx: TEN });
    expect(keys(roomy.drawn)).toEqual(['id', 'kind', 'note']);
    // 276 px for 764 wanted: id and kind give all they can (324), the note the other 164 of its 318.
    expect(px(roomy.layout.template)).toEqual([60, 62, 154]);
  });

  it('leaves out a column narrower than its least, and lays the others out in its room', () => {
    const tight = fittedLayout(EPISODES, ROWS, NONE, { px: 200, textPx: TEN });
    expect(keys(tight.drawn)).toEqual(['id', 'kind']);
    // The note would have had 54 px: without it, 182 px for id and kind, each giving way in proportion.
    expect(px(tight.layout.template)).toEqual([107, 74]);
    expect(tight.layout.widths).toHaveLength(2);
  });
});

