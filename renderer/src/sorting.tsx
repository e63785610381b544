import { useState } from 'react';

export interface Sort<K extends string> {
  key: K;
  descending: boolean;
}

/** A table's sort: a column's header sorts by it, ascending; the same header again reverses it. */
export function useSort<K extends string>(initial: K): [Sort<K>, (key: K) => void] {
  const [sort, setSort] = useState<Sort<K>>({ key: initial, descending: false });
  return [sort, (key) => setSort((s) => ({ key, descending: s.key === key ? !s.descending : false }))];
}

export interface HeaderColumn<K extends string> {
  key: K | string;
  title: string;
  numeric?: boolean;
  /** False for a column nothing sorts by. */
  sortable?: boolean;
}

const RESIZE_STEP_PX = 16;

/**
 * A column's right edge, dragged (or moved by ← →) to set its width; a double click gives it back the
 * width of its content.
 */
export function ResizeHandle({ title, onResize }: { title: string; onResize: (px: number | null) => void }) {
  const widthOf = (handle: Element) => (handle.parentElement as HTMLElement).getBoundingClientRect().width;
  const drag = (event: React.PointerEvent<HTMLSpanElement>) => {
    event.preventDefault();
    const start = event.clientX;
    const width = widthOf(event.currentTarget);
    const move = (e: PointerEvent) => onResize(Math.max(24, Math.round(width + e.clientX - start)));
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  const keys = (event: React.KeyboardEvent<HTMLSpanElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    event.stopPropagation();
    onResize(Math.max(24, Math.round(widthOf(event.currentTarget) + (event.key === 'ArrowRight' ? RESIZE_STEP_PX : -RESIZE_STEP_PX))));
  };
  return (
    <span
      className="col-resize"
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${title}`}
      tabIndex={0}
      title="drag (or ← →) to resize; double-click: fit to content"
      onPointerDown={drag}
      onKeyDown={keys}
      onDoubleClick={() => onResize(null)}
    />
  );
}

/**
 * The header row of a grid table: each sortable column a button, the sorted one marked (aria-sort, ▴ ▾);
 * with `onResize`, each column's edge resizes it.
 */
export function SortHeader<K extends string>({
  columns,
  grid,
  sort,
  onSort,
  onResize,
}: {
  columns: HeaderColumn<K>[];
  grid: string;
  sort: Sort<K>;
  onSort: (key: K) => void;
  onResize?: (key: string, px: number | null) => void;
}) {
  return (
    <div className="grid-row grid-head" role="row" style={{ gridTemplateColumns: grid }}>
      {columns.map((column) => {
        const sortable = column.sortable !== false;
        const sorted = sort.key === column.key;
        return (
          <div
            key={column.key}
            role="columnheader"
            className={column.numeric ? 'num' : undefined}
            aria-sort={!sortable ? undefined : sorted ? (sort.descending ? 'descending' : 'ascending') : 'none'}
          >
            {sortable ? (
              <button className="sort" onClick={() => onSort(column.key as K)}>
                {column.title}
                {sorted ? (sort.descending ? ' ▾' : ' ▴') : ''}
              </button>
            ) : (
              column.title
            )}
            {onResize && <ResizeHandle title={column.title} onResize={(px) => onResize(column.key, px)} />}
          </div>
        );
      })}
    </div>
  );
}
