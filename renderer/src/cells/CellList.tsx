import { useCallback, useMemo, useRef, useState } from 'react';
import type { CellSummary } from '../../../shared/model';
import { useApp } from '../context';
import { baseName } from '../format';
import { useKey, useRowKeys } from '../keys';
import { useNow } from '../useNow';
import { COLUMNS, matches } from './columns';
import { useVirtualRows } from './useVirtualRows';

const ROW_HEIGHT = 24;
const GRID = COLUMNS.map((c) => c.width).join(' ');

interface Sort {
  key: string;
  descending: boolean;
}

function sortCells(cells: CellSummary[], sort: Sort): CellSummary[] {
  const column = COLUMNS.find((c) => c.key === sort.key) ?? COLUMNS[0];
  const sign = sort.descending ? -1 : 1;
  return [...cells].sort((a, b) => {
    const x = column!.sortValue(a);
    const y = column!.sortValue(b);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sign * order || a.path.localeCompare(b.path);
  });
}

export function CellList() {
  const cells = useApp((s) => s.cells);
  const selectedRoot = useApp((s) => s.selectedRoot);
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<Sort>({ key: 'state', descending: false });
  const [cursor, setCursor] = useState<string | null>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  const now = useNow();

  const shown = useMemo(() => {
    const inRoot = selectedRoot === null ? cells : cells.filter((c) => c.root === selectedRoot);
    return sortCells(inRoot.filter((c) => matches(c, filter)), sort);
  }, [cells, selectedRoot, filter, sort]);
  const { ref, onScroll, first, last, totalHeight, scrollToRow } = useVirtualRows(shown.length, ROW_HEIGHT);

  const move = useCallback(
    (delta: number) => {
      if (shown.length === 0) return;
      const index = Math.max(0, Math.min(shown.length - 1, shown.findIndex((c) => c.id === cursor) + delta));
      setCursor(shown[index]!.id);
      scrollToRow(index);
    },
    [shown, cursor, scrollToRow],
  );
  useRowKeys(move);
  useKey('f', useCallback(() => filterRef.current?.focus(), []));

  const openCell = useApp((s) => s.openCell);
  useKey('Enter', useCallback(() => cursor && openCell(cursor), [cursor, openCell]));
  const toggleSort = (key: string) => setSort((s) => ({ key, descending: s.key === key ? !s.descending : false }));

  return (
    <section className="cell-list" aria-label="Cells">
      <div className="list-head">
        <h1 className="view-title">
          {selectedRoot ? baseName(selectedRoot) : 'All runs roots'}
          <span className="count">
            {shown.length === cells.length ? `${cells.length} cells` : `${shown.length} of ${cells.length} cells`}
          </span>
        </h1>
        <input
          ref={filterRef}
          type="search"
          className="list-filter"
          placeholder="Filter cells  f"
          aria-label="Filter cells"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && (setFilter(''), e.currentTarget.blur())}
        />
      </div>
      {cells.length === 0 ? (
        <p className="empty-note">
          No cells found{selectedRoot ? ` in ${selectedRoot}` : ''}. A cell is a folder with a <code>run.json</code> from coding-agent,
          bigym-agent or evopolicygym, or a Harbor job folder, at most three folders below the root.
        </p>
      ) : (
        <div className="grid-table" role="table" aria-label="Cells" aria-rowcount={shown.length + 1}>
          <div className="grid-row grid-head" role="row" style={{ gridTemplateColumns: GRID }}>
            {COLUMNS.map((column) => (
              <div
                key={column.key}
                role="columnheader"
                className={column.numeric ? 'num' : undefined}
                aria-sort={sort.key === column.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
              >
                <button className="sort" onClick={() => toggleSort(column.key)}>
                  {column.title}
                  {sort.key === column.key ? (sort.descending ? ' ▾' : ' ▴') : ''}
                </button>
              </div>
            ))}
          </div>
          <div className="grid-body" ref={ref} onScroll={onScroll}>
            <div style={{ height: totalHeight, position: 'relative' }}>
              {shown.slice(first, last).map((cell, i) => (
                <div
                  key={cell.id}
                  role="row"
                  aria-rowindex={first + i + 2}
                  aria-selected={cell.id === cursor}
                  className={`grid-row${cell.id === cursor ? ' cursor' : ''}`}
                  style={{ gridTemplateColumns: GRID, top: (first + i) * ROW_HEIGHT }}
                  onClick={() => setCursor(cell.id)}
                  onDoubleClick={() => openCell(cell.id)}
                >
                  {COLUMNS.map((column) => (
                    <div key={column.key} role="cell" className={column.numeric ? 'num' : undefined}>
                      {column.key === 'name' ? (
                        <button className="link" onClick={() => openCell(cell.id)}>
                          {column.render(cell, now)}
                        </button>
                      ) : (
                        column.render(cell, now)
                      )}
                    </div>
                  ))}
                </div>
              ))}
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
