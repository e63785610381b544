import { useMemo } from 'react';
import type { EpisodeRow } from '../../../shared/cell-detail';
import { useApp } from '../context';
import { useCell } from './context';
import { duration } from './projection';

/** How many of a cell's slowest units its Overview names. */
const SLOWEST = 5;

/** The cell's slowest ended units by wall time, each named by its format's word for it and a link to it in Episodes (where the Wall column sorts them all). */
export function SlowestUnits() {
  const rows = useCell((s) => s.detail?.episodes);
  const unit = useCell((s) => s.detail?.summary.capabilities.unit) ?? 'unit';
  const setCellPlace = useApp((s) => s.setCellPlace);
  const slowest = useMemo(
    () => (rows ?? []).filter((r): r is EpisodeRow & { wallS: number } => r.wallS !== null).sort((a, b) => b.wallS - a.wallS).slice(0, SLOWEST),
    [rows],
  );
  if (slowest.length < 2) return null;
  return (
    <section aria-label={`Slowest ${unit}s`}>
      <h2 className="section-title">Slowest {unit}s</h2>
      <ol className="slowest">
        {slowest.map((r) => (
          <li key={r.id}>
            <span className="muted">{unit}</span>{' '}
            <button className="link" onClick={() => setCellPlace({ tab: 'episodes', episode: r.id })}>
              {r.id}
            </button>{' '}
            <span className="num">{duration(r.wallS)}</span> <span className="muted">{r.status}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
