import { useMemo } from 'react';
import { CartesianGrid, ErrorBar, Line, ComposedChart, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import type { CellSummary } from '../../../shared/model';
import { frontierPoint, paretoBest } from '../../../shared/frontier';
import { successText } from '../../../shared/provenance';
import { wilson95 } from '../../../shared/stats';
import { AXIS, GRID, TOOLTIP } from '../chart-style';
import { fineDollars } from '../format';

interface Dot {
  name: string;
  cost: number;
  rate: number;
  /** The Wilson interval as distances below and above the rate, in points. */
  interval: [number, number];
  best: boolean;
  counts: string;
}

function DotTip({ dot }: { dot: Dot | undefined }) {
  if (!dot) return null;
  return (
    <div style={TOOLTIP.contentStyle}>
      <strong>{dot.name}</strong>
      <div>
        {dot.counts} · {fineDollars(dot.cost)} a unit{dot.best ? ' · Pareto-best' : ''}
      </div>
    </div>
  );
}

/**
 * Success rate (Wilson interval) against est. cost per unit for the board's cells whose cost is known, the
 * Pareto-best marked and joined: no other cell is as good for less, or better for as much.
 */
export function CostFrontier({ cells }: { cells: CellSummary[] }) {
  const dots = useMemo(() => {
    const points = cells.flatMap((cell) => {
      const point = frontierPoint(cell);
      return point ? [{ cell, point }] : [];
    });
    const best = paretoBest(points.map((p) => p.point));
    return points
      .map(({ cell, point }): Dot => {
        const [low, high] = wilson95(cell.episodes.successes, cell.episodes.scored) ?? [point.rate, point.rate];
        return { name: cell.name, cost: point.cost, rate: point.rate * 100, interval: [(point.rate - low) * 100, (high - point.rate) * 100], best: best.has(cell.path), counts: successText(cell.episodes.successes, cell.episodes.scored) };
      })
      .sort((a, b) => a.cost - b.cost);
  }, [cells]);
  const unpriced = cells.length - dots.length;
  if (dots.length === 0) {
    return cells.length ? <p className="muted">Cost frontier: no cell on this board has an est. cost (its tokens, or its model's list price in prices.yml).</p> : null;
  }
  const best = dots.filter((d) => d.best);
  return (
    <section aria-label="Cost frontier">
      <h2 className="section-title">
        Cost frontier <span className="muted">(success rate against est. cost per unit; {best.length} of {dots.length} Pareto-best{unpriced ? `; ${unpriced} without a cost left out` : ''})</span>
      </h2>
      <div className="frontier-chart" aria-hidden>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart margin={{ top: 6, right: 16, bottom: 4, left: -12 }}>
            <CartesianGrid {...GRID} />
            <XAxis type="number" dataKey="cost" name="est. cost per unit" tick={AXIS} tickFormatter={fineDollars} domain={['auto', 'auto']} />
            <YAxis type="number" dataKey="rate" name="success" unit="%" tick={AXIS} domain={[0, 100]} />
            <Tooltip {...TOOLTIP} content={({ payload }) => <DotTip dot={payload?.[0]?.payload as Dot | undefined} />} />
            <Line data={best} dataKey="rate" type="stepAfter" stroke="var(--ok)" dot={false} isAnimationActive={false} legendType="none" />
            <Scatter data={dots.filter((d) => !d.best)} fill="var(--muted)" isAnimationActive={false}>
              <ErrorBar dataKey="interval" direction="y" stroke="var(--muted)" width={4} />
            </Scatter>
            <Scatter data={best} fill="var(--ok)" isAnimationActive={false}>
              <ErrorBar dataKey="interval" direction="y" stroke="var(--ok)" width={4} />
            </Scatter>
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <table className="plain-table" aria-label="Pareto-best cells">
        <thead>
          <tr><th>Pareto-best</th><th className="num">Success</th><th className="num">Est. cost per unit</th></tr>
        </thead>
        <tbody>
          {best.map((d) => (
            <tr key={d.name}>
              <td>{d.name}</td>
              <td className="num">{d.counts}</td>
              <td className="num">{fineDollars(d.cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
