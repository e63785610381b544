import { useCallback, useEffect, useMemo, useState } from 'react';
import { frameSourceKey, type EpisodeRow, type FrameSource } from '../../../shared/cell-detail';
import { useVirtualRows } from '../cell-list/useVirtualRows';
import { useRowKeys } from '../keys';
import { EpisodeBudget, isLive } from './BudgetBars';
import { useApp } from '../context';
import { useCell } from './context';
import { EventStream } from './EventStream';
import { FramesViewer } from './FramesViewer';
import { duration } from './projection';

const ROW_HEIGHT = 24;
const STATUS_TONE: Record<string, string> = {
  running: 'running', evaluated: 'grey', completed: 'grey', ended: 'grey', timeout: 'fail', rate_limited: 'grey',
  infra_error: 'error', error: 'error', failed: 'error',
};

function Outcome({ row }: { row: EpisodeRow }) {
  if (!row.scored && row.status !== 'running') return <span className="tone-grey">excluded</span>;
  if (row.success === null) return <span className="muted">–</span>;
  return row.success ? <span className="tone-ok">✓ success</span> : <span className="tone-fail">✗ failure</span>;
}

function EpisodeTable({ rows, selected, onSelect }: { rows: EpisodeRow[]; selected: string | null; onSelect: (id: string) => void }) {
  const { ref, onScroll, first, last, totalHeight, scrollToRow } = useVirtualRows(rows.length, ROW_HEIGHT);
  const move = useCallback(
    (delta: number) => {
      if (!rows.length) return;
      const index = Math.max(0, Math.min(rows.length - 1, rows.findIndex((r) => r.id === selected) + delta));
      onSelect(rows[index]!.id);
      scrollToRow(index);
    },
    [rows, selected, onSelect, scrollToRow],
  );
  useRowKeys(move);
  const grid = '56px 96px 90px 60px 60px 70px minmax(80px, 1fr)';
  return (
    <div className="grid-table episodes" role="table" aria-label="Episodes" aria-rowcount={rows.length + 1}>
      <div className="grid-row grid-head" role="row" style={{ gridTemplateColumns: grid }}>
        {['#', 'Status', 'Outcome', 'Tools', 'Actions', 'Wall', 'Note'].map((title) => (
          <div key={title} role="columnheader" className={['Tools', 'Actions', 'Wall'].includes(title) ? 'num' : undefined}>
            {title}
          </div>
        ))}
      </div>
      <div className="grid-body" ref={ref} onScroll={onScroll}>
        <div style={{ height: totalHeight, position: 'relative' }}>
          {rows.slice(first, last).map((row, i) => (
            <div
              key={row.id}
              role="row"
              aria-selected={row.id === selected}
              className={`grid-row${row.id === selected ? ' cursor' : ''}`}
              style={{ gridTemplateColumns: grid, top: (first + i) * ROW_HEIGHT }}
              onClick={() => onSelect(row.id)}
            >
              <div role="cell">{row.id}</div>
              <div role="cell">
                <span className={`pill tone-${STATUS_TONE[row.status] ?? 'grey'}`}>{row.status}</span>
              </div>
              <div role="cell">
                <Outcome row={row} />
              </div>
              <div role="cell" className="num">{row.toolCalls ?? '–'}</div>
              <div role="cell" className="num">{row.actions ?? '–'}</div>
              <div role="cell" className="num">{row.wallS === null ? '–' : duration(row.wallS)}</div>
              <div role="cell" className="muted" title={row.note ?? ''}>{row.note}</div>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

export function EpisodesPane() {
  const detail = useCell((s) => s.detail);
  const events = useCell((s) => s.events);
  const stream = useCell((s) => s.stream);
  const startedMidFile = useCell((s) => s.startedMidFile);
  const openStream = useCell((s) => s.openStream);
  const openedOn = useApp((s) => s.openCellEpisode);
  const [picked, setPicked] = useState<string | null>(openedOn);
  const [frameSource, setFrameSource] = useState<FrameSource | null>(null);
  const rows = detail?.episodes ?? [];
  const cellLive = detail ? isLive(detail.summary.state) : false;
  const cellId = detail?.summary.id ?? '';

  // Until the user picks one, the view follows the newest running episode (or the last).
  const selected = picked ?? ([...rows].reverse().find((r) => r.status === 'running') ?? rows.at(-1))?.id ?? null;
  const row = rows.find((r) => r.id === selected);
  const wanted = row?.hasEvents ? row.id : (detail?.logStream ?? null);
  useEffect(() => void openStream(wanted), [openStream, wanted]);

  const sources = detail?.frameSources ?? [];
  useEffect(() => {
    if (row?.hasEvents) setFrameSource({ kind: 'episode', episode: row.id });
    else setFrameSource((current) => (current && current.kind !== 'episode' ? current : (sources[0] ?? null)));
  }, [row?.id, row?.hasEvents, sources]);
  const frameEvents = useMemo(() => events.filter((e) => typeof e.fields.frame === 'string').length, [events]);

  if (!detail) return null;
  return (
    <div className="episodes-pane">
      <EpisodeTable rows={rows} selected={selected} onSelect={setPicked} />
      <div className="episode-side">
        {row?.hasEvents && <EpisodeBudget events={events} row={row} />}
        {stream && <EventStream events={events} startedMidFile={startedMidFile} title={row?.hasEvents ? `Episode ${row.id}` : `Log: ${stream}`} live={row?.hasEvents ? row.status === 'running' : cellLive} />}
        {sources.length > 0 && (
          <select
            aria-label="Frames of"
            value={frameSource ? frameSourceKey(frameSource) : ''}
            onChange={(e) => setFrameSource(sources.find((s) => frameSourceKey(s) === e.target.value) ?? null)}
          >
            {sources.map((s) => (
              <option key={frameSourceKey(s)} value={frameSourceKey(s)}>
                {s.kind === 'episode' ? `episode ${s.episode}` : `${s.kind} ${s.version} seed ${s.seed}`}
              </option>
            ))}
          </select>
        )}
        {frameSource && <FramesViewer cellId={cellId} source={frameSource} refreshKey={frameEvents} live={frameSource.kind === 'episode' ? row?.status === 'running' : cellLive} />}
      </div>
    </div>
  );
}
