// How every chart of the window is drawn: its axes' text, its tooltip in the panel's colours (legible in
// both themes, not recharts' white box), its grid.

export const AXIS = { fontSize: 11, fill: 'var(--muted)' };
/** Legible in both themes: the panel's colours, not recharts' white box. */
export const TOOLTIP = {
  contentStyle: { background: 'var(--panel)', border: '1px solid var(--line)', borderRadius: 4, color: 'var(--text)', fontSize: 12 },
  labelStyle: { color: 'var(--muted)' },
  itemStyle: { color: 'var(--text)' },
  cursor: { stroke: 'var(--line)', fill: 'var(--raised)' },
};

/**
 * Horizontal lines only. recharts works out the vertical lines' places even when it draws none, measuring
 * every category label in the page to see which fit (30 ms of a chart of 200 episodes): none are asked for.
 */
export const GRID = { stroke: 'var(--line)', vertical: false, verticalCoordinatesGenerator: () => [] };

/** The colours of a chart's lines, one per series (a GPU, a policy version, an agent), in order. */
export const SERIES = ['var(--amber)', 'var(--running)', 'var(--ok)', 'var(--error)', 'var(--stopped)', 'var(--muted)'];
/** A legend's text: the axes' size, the page's colour. */
export const LEGEND = { fontSize: 11, color: 'var(--muted)' };
