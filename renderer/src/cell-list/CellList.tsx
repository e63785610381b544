import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SortHeader, useSort } from '../sorting';
import { useShallow } from 'zustand/react/shallow';
import type { CellSummary, RootStatus } from '../../../shared/model';
import { useApp } from '../context';
import { baseName, counted, percent, whole } from '../format';
import { useKey, useRowKeys } from '../keys';
import { useNow } from '../useNow';
import { NowStrip } from './NowStrip';
import { ColumnsMenu } from '../ColumnsMenu';
import { columnLayout, LAYOUT_SAMPLE_MS, useColumnPrefs, useRoom, useSampled, visibleColumns } from '../table-layout';
import { useNameCuts } from '../name-cuts';
import { COLUMNS } from './columns';
import { FilterField } from './FilterField';
import { filterSyntax, matches, parseFilter } from './filter';
import { groupRows, sortCells, type GroupBy } from './rows';
import { keepOrder, sameOrder } from './stableOrder';
import { useVirtualRows } from './useVirtualRows';
import { DemoNote } from './DemoNote';
import { TableExport } from '../TableExport';
import { cellsTable } from './columns';
import { isLocal } from '../../../shared/address';

const ROW_HEIGHT = 24;
/** A cell as its name column names it. */
const nameOf = (cell: CellSummary) => cell.name;

/** The first scan of the roots in view: how many cells are read of how many found (so far, while some root is still searched). */
function ReadingLine({ progress }: { progress: NonNullable<RootStatus['progress']>[] }) {
  const read = progress.reduce((sum, p) => sum + p.read, 0);
  const total = progress.reduce((sum, p) => sum + p.total, 0);
  const searching = progress.some((p) => p.searching);
  return (
    <span className="reading" role="status" aria-label="Reading cells" title={searching ? 'more cells are still being found' : undefined}>
      reading {whole(read)} / {whole(total)}
      {searching ? '+' : ''} cells
      <span className="bar" role="progressbar" aria-valuenow={read} aria-valuemin={0} aria-valuemax={total}>
        <span className="fill" style={{ width: `${total ? (read / total) * 100 : 0}%` }} />
      </span>
    </span>
  );
}

export function CellList() {
  const cells = useApp((s) => s.cells);
  const selectedRoot = useApp((s) => s.selectedRoot);
  const whatIsACell = useApp((s) => s.info?.whatIsACell);
  const selectedHost = useApp((s) => s.selectedHost);
  const selectHost = useApp((s) => s.selectHost);
  const reading = useApp(useShallow((s) => s.roots.filter((r) => r.progress && (selectedRoot === null || r.path === selectedRoot)).map((r) => r.progress as NonNullable<RootStatus['progress']>)));
  const filter = useApp((s) => s.listFilter);
  const setFilter = useApp((s) => s.setListFilter);
  const [sort, toggleSort] = useSort<string>('state');
  const [group, setGroup] = useState<GroupBy>('none');
  const cursor = useApp((s) => s.listCursor);
  const setCursor = useApp((s) => s.setListCursor);
  const filterRef = useRef<HTMLInputElement>(null);
  const now = useNow();

  const sorted = useMemo(() => {
    const inRoot = selectedRoot !== null ? cells.filter((c) => c.root === selectedRoot) : selectedHost !== null ? cells.filter((c) => c.host === selectedHost) : cells;
    const terms = parseFilter(filter);
    return sortCells(inRoot.filter((c) => matches(c, terms)), sort);
  }, [cells, selectedRoot, selectedHost, filter, sort]);
  // While cells change, rows stay where they are: sorting again (a header, or "re-sort") puts them in order.
  const [resorts, setResorts] = useState(0);
  const orderKey = JSON.stringify([sort, filter, selectedRoot, selectedHost, resorts]);
  const order = useRef<{ key: string; ids: string[] }>({ key: '', ids: [] });
  const { shown, outOfOrder } = useMemo(() => {
    const sortedIds = sorted.map((c) => c.id);
    const ids = order.current.key === orderKey ? keepOrder(order.current.ids, sortedIds) : sortedIds;
    order.current = { key: orderKey, ids };
    const byId = new Map(sorted.map((c) => [c.id, c]));
    return { shown: ids.map((id) => byId.get(id) as CellSummary), outOfOrder: !sameOrder(ids, sortedIds) };
  }, [sorted, orderKey]);
  const [prefs, { toggle, resize }] = useColumnPrefs('cells');
  const columns = useMemo(() => visibleColumns(COLUMNS, prefs), [prefs]);
  const rows = useMemo(() => groupRows(shown, group), [shown, group]);
  const { ref, onScroll, first, last, totalHeight, scrollToRow } = useVirtualRows(rows.length, ROW_HEIGHT);
  const room = useRoom(ref, cells.length > 0);
  // Widths and name cuts from every cell's texts, taken again at most every LAYOUT_SAMPLE_MS while cells change.
  const sampled = useSampled(cells, LAYOUT_SAMPLE_MS);
  const layout = useMemo(() => columnLayout(columns, sampled, prefs, room), [columns, sampled, prefs, room]);
  const grid = layout.template;
  const fitName = useNameCuts(sampled, nameOf, layout.chars.name ?? null);
  const uncut = useCallback((text: string) => text, []);

  const move = useCallback(
    (delta: number) => {
      if (shown.length === 0) return;
      const index = Math.max(0, Math.min(shown.length - 1, shown.findIndex((c) => c.id === cursor) + delta));
      const id = shown[index]!.id;
      setCursor(id);
      scrollToRow(rows.findIndex((r) => r.kind === 'cell' && r.cell.id === id));
    },
    [shown, rows, cursor, scrollToRow],
  );
  useRowKeys(move);
  const focusFilter = useCallback(() => filterRef.current?.focus(), []);
  useKey('f', focusFilter);
  useKey('/', focusFilter);

  const openCell = useApp((s) => s.openCell);
  useKey('Enter', useCallback(() => cursor && openCell(cursor), [cursor, openCell]));
  // A second Esc, once the filter is left, clears it: heard, not taken (a dialog's Esc still closes it).
  useEffect(() => {
    if (!filter) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && event.target === document.body && !document.querySelector('dialog[open]')) setFilter('');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [filter, setFilter]);

  /** From the filter: ↓ enters the list at its first match, Enter opens it, Esc leaves keeping the text. */
  const onFilterKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    const first = shown.find((c) => c.id === cursor) ?? shown[0];
    if (e.key === 'Escape' || (e.key === 'ArrowDown' && first)) {
      e.preventDefault();
      // Heard here only: the cell view and the list's own Esc stay as they are.
      e.stopPropagation();
      e.currentTarget.blur();
      if (e.key === 'ArrowDown' && first) {
        setCursor(first.id);
        scrollToRow(rows.findIndex((r) => r.kind === 'cell' && r.cell.id === first.id));
      }
    } else if (e.key === 'Enter' && first) {
      e.preventDefault();
      setCursor(first.id);
      openCell(first.id);
    }
  };

  return (
    <section className="cell-list" aria-label="Cells">
      <div className="list-head">
        <h1 className="view-title">
          {selectedRoot ? baseName(selectedRoot) : selectedHost ? `Host ${isLocal(selectedHost) ? 'local (this machine)' : selectedHost}` : 'All runs roots'}
          <span className="count">
            {shown.length === cells.length ? counted(cells.length, 'cell') : `${whole(shown.length)} of ${counted(cells.length, 'cell')}`}
          </span>
          {outOfOrder && (
            <button className="link resort" onClick={() => setResorts((n) => n + 1)} title="Rows keep their places while cells change; this sorts them again">
              re-sort
            </button>
          )}
          {selectedHost && (
            <button className="link clear-host" onClick={() => selectHost(null)} title="Show the cells of every host">
              all hosts
            </button>
          )}
          {reading.length > 0 && <ReadingLine progress={reading} />}
        </h1>
        <select aria-label="Group by" value={group} onChange={(e) => setGroup(e.target.value as GroupBy)} className="list-group">
          <option value="none">no grouping</option>
          <option value="host">group by host</option>
          <option value="format">group by format</option>
          <option value="model">group by model</option>
        </select>
        <FilterField ref={filterRef} value={filter} onChange={setFilter} onKeyDown={onFilterKey} cells={cells} />
        <TableExport name="cells" data={() => cellsTable(shown)} />
        <ColumnsMenu table="cells" columns={COLUMNS} prefs={prefs} onToggle={toggle} />
      </div>
      <DemoNote />
      {/* What the filter shows is what the strip counts. */}
      {shown.length > 0 && <NowStrip cells={shown} />}
      {cells.length > 0 && shown.length === 0 && filter.trim() !== '' && (
        <p className="empty-note" role="status">
          No cell matches <code>{filter.trim()}</code>. Filter by {filterSyntax(cells)}.
        </p>
      )}
      {cells.length === 0 ? (
        <p className="empty-note">
          No cells found{selectedRoot ? ` in ${selectedRoot}` : ''}.{whatIsACell ? ` A cell is ${whatIsACell}, at most three folders below the root.` : ''}
        </p>
      ) : (
        <div className="grid-table" role="table" aria-label="Cells" aria-rowcount={rows.length + 1}>
          <SortHeader columns={columns} grid={grid} sort={sort} onSort={toggleSort} onResize={resize} />
          <div className="grid-body" ref={ref} onScroll={onScroll}>
            <div style={{ height: totalHeight, position: 'relative' }}>
              {rows.slice(first, last).map((row, i) =>
                row.kind === 'group' ? (
                  <div key={`group:${row.label}`} role="row" className="grid-row group-head" style={{ top: (first + i) * ROW_HEIGHT }}>
                    <div role="rowheader">{row.label}</div>
                    <div role="cell" className="group-summary muted">
                      {counted(row.count, 'cell')} · {whole(row.running)} running · {row.successRate === null ? 'nothing scored' : `${percent(row.successRate)} of scored episodes`}
                    </div>
                  </div>
                ) : (
                <div
                  key={row.cell.id}
                  role="row"
                  aria-rowindex={first + i + 2}
                  aria-selected={row.cell.id === cursor}
                  className={`grid-row${row.cell.id === cursor ? ' cursor' : ''}`}
                  style={{ gridTemplateColumns: grid, top: (first + i) * ROW_HEIGHT }}
                  onClick={() => (setCursor(row.cell.id), openCell(row.cell.id))}
                >
                  {columns.map((column) => (
                    <div key={column.key} role="cell" className={column.numeric ? 'num' : undefined}>
                      {column.key === 'name' ? (
                        <button className="link" aria-label={row.cell.name}>
                          {column.render(row.cell, now, fitName)}
                        </button>
                      ) : (
                        column.render(row.cell, now, uncut)
                      )}
                    </div>
                  ))}
                </div>
                ),
              )}
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
