/** A share (0 to 1) over the last minutes, as a small line: where a load goes at a glance. */
export function Sparkline({ points, label }: { points: number[]; label: string }) {
  if (points.length < 2) return <span className="muted">–</span>;
  const width = 80;
  const height = 18;
  const path = points.map((p, i) => `${((i / (points.length - 1)) * width).toFixed(1)},${(height - 1 - p * (height - 2)).toFixed(1)}`).join(' ');
  return (
    <svg className="sparkline" width={width} height={height} role="img" aria-label={label}>
      <polyline points={path} fill="none" stroke="currentColor" strokeWidth="1.2" />
    </svg>
  );
}
