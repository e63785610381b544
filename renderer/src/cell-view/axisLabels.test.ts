import { describe, expect, it } from 'vitest';
import { LABEL_GAP_PX, labelInterval, MOST_LABELS } from './axisLabels';

/** Where each shown label starts and ends, as EpisodeTick anchors them on bars spread over `plotPx`. */
function extents(count: number, plotPx: number, labelPx: number, interval: number): [number, number][] {
  const shown = Array.from({ length: count }, (_, i) => i).filter((i) => i % (interval + 1) === 0);
  return shown.map((i, k) => {
    const x = ((i + 0.5) * plotPx) / count;
    if (k === 0) return [x, x + labelPx];
    if (k === shown.length - 1) return [x - labelPx, x];
    return [x - labelPx / 2, x + labelPx / 2];
  });
}

describe('the labels of an episode axis', () => {
  it("seven rollouts of 26-character ids in a half-width chart: the first's and the last's, apart, where the first and the fifth's ran into each other", () => {
    // A NeMo Gym collection's tokens per unit at 1440x900, as drawn: 470 px of bars, ids 160 px wide.
    const [first, last] = extents(7, 470, 160, labelInterval(7, 470, 160));
    expect([first?.[0], last?.[1]]).toEqual([470 / 14, (13 * 470) / 14]);
    expect((last as [number, number])[0] - (first as [number, number])[1]).toBeGreaterThanOrEqual(LABEL_GAP_PX);
  });

  it('never overlap, are at most six, and are as many as fit: random counts, widths and labels', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 2_000; trial++) {
      const [count, plotPx, labelPx] = [1 + Math.floor(random() * 300), 100 + random() * 1_900, 10 + random() * 290];
      const interval = labelInterval(count, plotPx, labelPx);
      const labels = extents(count, plotPx, labelPx, interval);
      expect(labels.length).toBeLessThanOrEqual(MOST_LABELS);
      for (let k = 1; k < labels.length; k++) expect((labels[k] as [number, number])[0] - (labels[k - 1] as [number, number])[1], `trial ${trial}`).toBeGreaterThanOrEqual(LABEL_GAP_PX - 1e-9);
      // One more label (the next interval down) would not fit, or would be over six.
      if (interval > 0) {
        const more = extents(count, plotPx, labelPx, interval - 1);
        const fits = more.length <= MOST_LABELS && more.every((box, k) => k === 0 || box[0] - (more[k - 1] as [number, number])[1] >= LABEL_GAP_PX);
        expect(fits && more.length > labels.length, `trial ${trial}: ${count} points, ${plotPx} px, labels of ${labelPx} px`).toBe(false);
      }
    }
  });
});
