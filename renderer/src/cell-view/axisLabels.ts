// Which points an episode axis labels, worked out from the labels' width rather than measured by recharts
// in the page (48 ms of a chart's first draw for 200 points).

/** An episode axis's labels are at most this many. */
export const MOST_LABELS = 6;
/** Room between two labels of an axis, in px. */
export const LABEL_GAP_PX = 16;

/**
 * recharts' `interval` for an axis of `count` points spread over `plotPx` (a bar's pitch, `plotPx / count`,
 * the closest any chart puts them), each label at most `labelPx` wide: the label of every (interval + 1)th
 * point from the first, as many as fit side by side, at most MOST_LABELS. The first label starts at its point
 * and the last ends at its point (EpisodeTick), the others are centred on theirs: two labels need two widths
 * between their points, more need a width and a half (a first or last beside a centred one). Where two do
 * not fit, the first alone.
 */
export function labelInterval(count: number, plotPx: number, labelPx: number): number {
  for (let every = 1; every < count; every++) {
    const shown = Math.floor((count - 1) / every) + 1;
    const apart = (every * plotPx) / count;
    if (shown <= MOST_LABELS && apart >= (shown === 2 ? 2 : 1.5) * labelPx + LABEL_GAP_PX) return every - 1;
  }
  return Math.max(0, count - 1);
}
