import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { frameSourceKey, type EpisodeRow, type FrameSource } from '../../../shared/cell-detail';
import { SortHeader, useSort, type HeaderColumn } from '../sorting';
import { ColumnsMenu } from '../ColumnsMenu';
import { fittedLayout, LAYOUT_SAMPLE_MS, useColumnPrefs, useRoom, useSampled, visibleColumns, type SizedColumn } from '../table-layout';
import { useVirtualRows } from '../cell-list/useVirtualRows';
import { useRowKeys } from '../keys';
import { EpisodeBudget } from './BudgetBars';
import { isLive } from '../../../shared/model';
import { naturalOrder } from '../../../shared/order';
import { useApp } from '../context';
import { useCell } from './context';
import { useNow } from '../useNow';
import { stuckUnits, type StuckUnit } from '../../../shared/stuck';
import { EventStream } from './EventStream';
import { EpisodeFacts } from './EpisodeFacts';
import { FramesViewer } from './FramesViewer';
import { duration } from './projection';
import { whole } from '../format';
import { useNameCuts } from '../name-cuts';
import { TableExport } from '../TableExport';

const ROW_HEIGHT = 24;
/** Short of room, the id column gives way down to this much. */
const ID_MIN_PX = 96;
/** Narrower than this, the note column is not drawn: a letter or two of a note says nothing. */
const NOTE_LEAST_PX = 64;
const STATUS_TONE: Record<string, string> = {
  running: 'running', stuck: 'amber', looping: 'amber', evaluated: 'grey', completed: 'grey', ended: 'grey', timeout: 'fail', rate_limited: 'grey',
  infra_error: 'error', error: 'error', failed: 'error',
};

/**
 * A row as the table shows it: a running unit stuck or looping now (shared/stuck.ts) says so in place of
 * `running`, its why in place of its note, and filters by it; it is still running (its outcome, its budget
 * and its stream are a running unit's).
 */
type ShownRow = EpisodeRow & { stuck?: StuckUnit };
const statusWord = (row: ShownRow) => row.stuck?.kind ?? row.status;
const noteOf = (row: ShownRow) => row.stuck?.why ?? row.note;

function Outcome({ row }: { row: EpisodeRow }) {
  if (!row.scored && row.status !== 'running') return <span className="tone-grey">excluded</span>;
  if (row.success === null) return <span className="muted">–</span>;
  return row.success ? <span className="tone-ok">✓ success</span> : <span className="tone-fail">✗ failure</span>;
}

type SortKey = 'id' | 'status' | 'outcome' | 'toolCalls' | 'actions' | 'wallS';
const OUTCOME_TEXT = '✓ success';
const idOf = (row: EpisodeRow) => row.id;
const wall = (row: EpisodeRow) => (row.wallS === null ? '–' : duration(row.wallS));
interface EpisodeColumn extends HeaderColumn<SortKey>, SizedColumn<ShownRow> {
  /** `cut`: an id as the column holds it now (told apart from its alikes where it is cut). */
  render(row: ShownRow, cut: (id: string) => string): React.ReactNode;
  /** A written column's own class (a numeric one is `num`). */
  className?: string;
  /** Whether a row has no value here: a column no episode of the cell has a value for is left out (rollouts that count no tools). */
  blank?: (row: ShownRow) => boolean;
}
const COLUMNS: EpisodeColumn[] = [
  // Ids are what tells two episodes apart: whole where there is room, else cut as the cell list's names
  // are, each still told apart from its alikes (`…000002` of a record's numbered submissions), whole on hover.
  { key: 'id', title: '#', always: true, minPx: ID_MIN_PX, fit: (r) => r.id, render: (r, cut) => <span title={r.id}>{cut(r.id)}</span> },
  { key: 'status', title: 'Status', whole: true, fit: (r) => `${statusWord(r)}  `, render: (r) => <span className={`pill tone-${STATUS_TONE[statusWord(r)] ?? 'grey'}`}>{statusWord(r)}</span> },
  // Left out where no row has a verdict or an exclusion (a record's submissions, judged only by the run's assessment, show only –).
  { key: 'outcome', title: 'Outcome', fit: () => OUTCOME_TEXT, render: (r) => <Outcome row={r} />, blank: (r) => outcomeOf(r) === 'open' },
  { key: 'toolCalls', title: 'Tools', numeric: true, fit: (r) => String(r.toolCalls ?? '–'), render: (r) => r.toolCalls ?? '–', blank: (r) => r.toolCalls === null },
  { key: 'actions', title: 'Actions', numeric: true, fit: (r) => String(r.actions ?? '–'), render: (r) => r.actions ?? '–', blank: (r) => r.actions === null },
  { key: 'wallS', title: 'Wall', numeric: true, fit: wall, render: wall, blank: (r) => r.wallS === null },
  // A note gives way before the ids: an id cut while a note has room left two rows looking alike.
  { key: 'note', title: 'Note', sortable: false, grow: true, yieldsFirst: true, minPx: 0, dropBelowPx: NOTE_LEAST_PX, className: 'muted', fit: (r) => noteOf(r) ?? '', render: (r) => <span title={noteOf(r) ?? ''}>{noteOf(r)}</span>, blank: (r) => !noteOf(r) },
];
type OutcomeFilter = 'all' | 'success' | 'failure' | 'excluded';

const outcomeOf = (row: EpisodeRow): Exclude<OutcomeFilter, 'all'> | 'open' =>
  !row.scored && row.status !== 'running' ? 'excluded' : row.success === null ? 'open' : row.success ? 'success' : 'failure';

function sortValue(row: ShownRow, key: SortKey): number | string {
  if (key === 'id') return Number.isNaN(Number(row.id)) ? row.id : Number(row.id);
  if (key === 'outcome') return outcomeOf(row);
  if (key === 'status') return statusWord(row);
  return row[key] ?? -1;
}

// Memoized: the pane renders again for each event of the stream it follows, the table only when its rows do.
const EpisodeTable = memo(function EpisodeTable({ rows, leftOut, selected, onSelect }: { rows: ShownRow[]; leftOut: number; selected: string | null; onSelect: (id: string) => void }) {
  const [sort, toggleSort] = useSort<SortKey>('id');
  const [status, setStatus] = useState('all');
  const [outcome, setOutcome] = useState<OutcomeFilter>('all');
  const [text, setText] = useState('');
  const statuses = useMemo(() => [...new Set(rows.map(statusWord))].sort(), [rows]);
  const shown = useMemo(() => {
    const needle = text.trim().toLowerCase();
    const kept = rows.filter(
      (r) => (status === 'all' || statusWord(r) === status) && (outcome === 'all' || outcomeOf(r) === outcome) && (!needle || `${r.id} ${statusWord(r)} ${noteOf(r) ?? ''}`.toLowerCase().includes(needle)),
    );
    const sign = sort.descending ? -1 : 1;
    return kept.sort((a, b) => {
      const x = sortValue(a, sort.key);
      const y = sortValue(b, sort.key);
      return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : naturalOrder(String(x), String(y)));
    });
  }, [rows, status, outcome, text, sort]);
  const { ref, onScroll, first, last, totalHeight, scrollToRow } = useVirtualRows(shown.length, ROW_HEIGHT);
  const move = useCallback(
    (delta: number) => {
      if (!shown.length) return;
      const index = Math.max(0, Math.min(shown.length - 1, shown.findIndex((r) => r.id === selected) + delta));
      onSelect(shown[index]!.id);
    },
    [shown, selected, onSelect],
  );
  useRowKeys(move);
  // The selected row in view, however it was chosen (keys, a link, Ctrl+K).
  const selectedIndex = shown.findIndex((r) => r.id === selected);
  useEffect(() => {
    if (selectedIndex >= 0) scrollToRow(selectedIndex);
  }, [selectedIndex, scrollToRow]);
  const [prefs, { toggle, resize }] = useColumnPrefs('episodes');
  const offered = useMemo(() => COLUMNS.filter((c) => !c.blank || rows.length === 0 || !rows.every(c.blank)), [rows]);
  const columns = useMemo(() => visibleColumns(offered, prefs), [offered, prefs]);
  const room = useRoom(ref, true);
  const sampled = useSampled(rows, LAYOUT_SAMPLE_MS);
  const { drawn, layout } = useMemo(() => fittedLayout(columns, sampled, prefs, room), [columns, sampled, prefs, room]);
  const cutId = useNameCuts(sampled, idOf, layout.chars.id ?? null);
  const grid = layout.template;
  return (
    <div className="episode-table">
      <div className="episode-filters" role="group" aria-label="Filter episodes">
        <select aria-label="Episode status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="all">any status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <select aria-label="Episode outcome" value={outcome} onChange={(e) => setOutcome(e.target.value as OutcomeFilter)}>
          <option value="all">any outcome</option>
          <option value="success">success</option>
          <option value="failure">failure</option>
          <option value="excluded">excluded</option>
        </select>
        <input type="search" aria-label="Search episodes" placeholder="Search episodes" value={text} onChange={(e) => setText(e.target.value)} />
        <span className="muted" title={leftOut ? '`cellwatch episodes` lists them all' : undefined}>
          {shown.length === rows.length ? `${leftOut ? `the latest ${whole(rows.length)} of ${whole(rows.length + leftOut)}` : whole(rows.length)} episodes` : `${whole(shown.length)} of ${whole(rows.length)}`}
        </span>
        <TableExport name="episodes" data={() => ({ header: ['episode', 'status', 'outcome', 'tools', 'actions', 'wall s', 'note'], rows: shown.map((r) => [r.id, statusWord(r), outcomeOf(r), String(r.toolCalls ?? ''), String(r.actions ?? ''), r.wallS === null ? '' : String(r.wallS), noteOf(r) ?? '']) })} />
        <ColumnsMenu table="episodes" columns={offered} prefs={prefs} onToggle={toggle} />
      </div>
      <div className="grid-table episodes" role="table" aria-label="Episodes" aria-rowcount={shown.length + 1}>
        <SortHeader columns={drawn} grid={grid} sort={sort} onSort={toggleSort} onResize={resize} />
        <div className="grid-body" ref={ref} onScroll={onScroll}>
          <div style={{ height: totalHeight, position: 'relative' }}>
            {shown.slice(first, last).map((row, i) => (
              <div
                key={row.id}
                role="row"
                // Named by its id whole, however the column cuts it.
                aria-label={row.id}
                aria-selected={row.id === selected}
                className={`grid-row${row.id === selected ? ' cursor' : ''}`}
                style={{ gridTemplateColumns: grid, top: (first + i) * ROW_HEIGHT }}
                onClick={() => onSelect(row.id)}
              >
                {drawn.map((column) => (
                  <div key={column.key} role="cell" className={column.numeric ? 'num' : column.className}>
                    {column.render(row, cutId)}
                  </div>
                ))}
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
});

export function EpisodesPane() {
  const detail = useCell((s) => s.detail);
  const events = useCell((s) => s.events);
  const stream = useCell((s) => s.stream);
  const startedMidFile = useCell((s) => s.startedMidFile);
  const openStream = useCell((s) => s.openStream);
  const picked = useApp((s) => s.openCellEpisode);
  const setCellPlace = useApp((s) => s.setCellPlace);
  const setPicked = useCallback((episode: string) => setCellPlace({ episode }), [setCellPlace]);
  const inspectedSeq = useApp((s) => s.openCellEvent);
  const [frameSource, setFrameSource] = useState<FrameSource | null>(null);
  // A new object each time, so picking the same frame twice seeks twice.
  const [seek, setSeek] = useState<{ frame: string } | null>(null);
  const now = useNow(10_000);
  const rows: ShownRow[] = useMemo(() => {
    const stuck = new Map(stuckUnits(detail?.summary.running ?? [], now).map((s) => [s.unit, s]));
    // None: the rows as they came (a new list every tick would lay a table of 10,000 rows out again).
    if (!stuck.size) return detail?.episodes ?? [];
    return (detail?.episodes ?? []).map((r) => (r.status === 'running' && stuck.has(r.id) ? { ...r, stuck: stuck.get(r.id) } : r));
  }, [detail?.episodes, detail?.summary.running, now]);
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
      <EpisodeTable rows={rows} leftOut={detail.episodesLeftOut ?? 0} selected={selected} onSelect={setPicked} />
      <div className="episode-side">
        {row?.hasEvents && <EpisodeBudget events={events} row={row} />}
        {row && !row.hasEvents && (row.facts?.length || row.files?.length || detail.summary.capabilities.transcripts) ? <EpisodeFacts key={row.id} cellId={cellId} row={row} /> : null}
        {row && !row.hasEvents && !stream && !row.facts?.length && !row.files?.length && !detail.summary.capabilities.transcripts && (
          <p className="muted empty-note" role="status">
            No events of this {detail.summary.capabilities.unit} to show: its files hold none.
          </p>
        )}
        {stream && <EventStream events={events} startedMidFile={startedMidFile} title={row?.hasEvents ? `Episode ${row.id}` : `Log: ${stream}`} live={row?.hasEvents ? row.status === 'running' : cellLive} endedAs={cellLive ? undefined : detail.summary.state} onFrame={(frame) => setSeek({ frame })} inspect={{ seq: inspectedSeq, set: (seq) => setCellPlace({ event: seq }) }} frames={row?.hasEvents ? { cellId, episode: row.id } : undefined} />}
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
        {frameSource && <FramesViewer cellId={cellId} source={frameSource} refreshKey={frameEvents} live={frameSource.kind === 'episode' ? row?.status === 'running' : cellLive} seek={seek} />}
      </div>
    </div>
  );
}
