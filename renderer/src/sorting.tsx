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

/** The header row of a grid table: each sortable column a button, the sorted one marked (aria-sort, ▴ ▾). */
export function SortHeader<K extends string>({ columns, grid, sort, onSort }: { columns: HeaderColumn<K>[]; grid: string; sort: Sort<K>; onSort: (key: K) => void }) {
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
          </div>
        );
      })}
    </div>
  );
}
