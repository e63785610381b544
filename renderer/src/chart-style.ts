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

/** The most characters of a name a chart writes (a series, an axis's id): a rollout's id is 26. */
const CHART_TEXT = 32;

/** A name as a chart writes it: a longer one (an agent named with hundreds of characters) by its start and end; whole in the tooltip. */
export function chartText(text: string): string {
  const chars = text.length > CHART_TEXT ? Array.from(text) : [];
  return chars.length > CHART_TEXT ? `${chars.slice(0, CHART_TEXT / 2).join('')}…${chars.slice(1 - CHART_TEXT / 2).join('')}` : text;
}

/** About how many steps an axis takes. */
const AXIS_STEPS = 4;

/**
 * An axis from 0 past `max` in about four steps of 1, 2, 2.5 or 5 times a power of ten; `whole`: each step a
 * whole number (an axis of counts). recharts' own steps are any twentieth of a power of ten (0.000085, 65).
 */
export function niceTicks(max: number, { whole = false } = {}): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const power = 10 ** Math.floor(Math.log10(max / AXIS_STEPS));
  const steps = [1, 2, 2.5, 5, 10].map((m) => m * power).filter((step) => !whole || Number.isInteger(step));
  const step = steps.find((s) => s * AXIS_STEPS >= max) ?? (whole ? Math.max(1, 10 * power) : 10 * power);
  // Rounded to the step's own digits: 3 x 0.0001 is 0.00030000000000000003 in floating point.
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, k) => Number((k * step).toPrecision(12)));
}
