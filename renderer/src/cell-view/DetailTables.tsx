import { useCallback, useMemo, type TdHTMLAttributes } from 'react';
import { whole } from '../format';
import { share } from '../../../shared/counts';
import { isLive } from '../../../shared/model';
import type { DetailTable, TableValue } from '../../../shared/cell-detail';
import { useCell } from './context';
import { useApp } from '../context';
import { usePlainColumns } from '../plainColumns';
import { columnLayout, useRoom, type ColumnLayout } from '../table-layout';
import { useVirtualRows } from '../cell-list/useVirtualRows';
import { TableExport } from '../TableExport';

const ROW_HEIGHT = 24;

/** Places a fraction is shown to, at most. */
const PLACES = 4;
const FIXED = Array.from({ length: PLACES + 1 }, (_, places) => new Intl.NumberFormat('en-US', { minimumFractionDigits: places, maximumFractionDigits: places }));

/** The places a numeric column's fractions need (up to four): each of its values is shown to them, so they line up at the point. */
function placesOf(rows: TableValue[][], i: number): number {
  let most = 0;
  for (const row of rows) {
    const value = row[i];
    if (typeof value !== 'number' || Number.isInteger(value)) continue;
    const text = String(Number(value.toFixed(PLACES)));
    const dot = text.indexOf('.');
    if (dot >= 0) most = Math.max(most, text.length - dot - 1);
    if (most === PLACES) break;
  }
  return most;
}

/**
 * A value as a table cell shows it: a dash for nothing; in a column of numbers (`places` given) each to
 * the column's places, thousands grouped; elsewhere a number whole, or a fraction to four places.
 */
function asText(value: TableValue, places?: number): string {
  if (value === null) return '–';
  if (typeof value !== 'number') return String(value);
  if (places !== undefined) return (FIXED[places] as Intl.NumberFormat).format(value);
  return Number.isInteger(value) ? whole(value) : String(Number(value.toFixed(PLACES)));
}

/**
 * One table, its columns as wide as their content (measured, not left to the browser's table layout) and
 * only the rows in its box rendered: a collection's 200 rollouts of 14 columns took 260 ms of layout whole.
 */
/** `live`: its cell may still add rows (an empty table says "None yet."). */
export function DetailTableView({ table, onOpen, live }: { table: DetailTable; onOpen: (unit: string) => void; live: boolean }) {
  const places = useMemo(
    () => table.columns.map((_, i) => (table.rows.length > 0 && table.rows.every((row) => row[i] === null || typeof row[i] === 'number') ? placesOf(table.rows, i) : undefined)),
    [table],
  );
  // A column of fractions reads as a percentage, as every rate of the window does.
  const textOf = (value: TableValue, i: number) => (typeof value === 'number' && table.shares?.includes(table.columns[i] as string) ? share(value) : asText(value, places[i]));
  const { ref, onScroll, first, last } = useVirtualRows(table.rows.length, ROW_HEIGHT);
  const room = useRoom(ref, table.rows.length > 0);
  const { shown, prefs, menu, header, cells } = usePlainColumns<TableValue[]>(
    `table.${table.id}`,
    // A column is remembered by its name; a second of the same name (an environment's own `agent`) by its number too.
    table.columns.map((title, i) => {
      const before = table.columns.slice(0, i).filter((c) => c === title).length;
      const key = before ? `${title}#${before + 1}` : title;
      return {
        key,
        title,
        always: i === 0,
        numeric: places[i] !== undefined,
        fit: (row) => textOf(row[i] as TableValue, i),
        render: (row) => {
          const value = row[i] as TableValue;
          if (i > 0 || table.opens !== 'transcript') return textOf(value, i);
          return (
            <button className="link" onClick={() => onOpen(String(value))} aria-label={`Open rollout ${textOf(value, i)}`}>
              {textOf(value, i)}
            </button>
          );
        },
        // A value cut to its column's width says itself whole on hover.
        td: (row): TdHTMLAttributes<HTMLTableCellElement> => {
          const text = textOf(row[i] as TableValue, i);
          return { title: text.length > (layout.chars[key] ?? 40) ? text : undefined };
        },
      };
    }),
    table.title,
  );
  // Every column as wide as its content (up to columnLayout's most): a wide table scrolls sideways in its box rather than cut its values.
  const layout: ColumnLayout = columnLayout(shown, table.rows, prefs, room && { px: Number.POSITIVE_INFINITY, textPx: room.textPx });
  const below = (table.rows.length - last) * ROW_HEIGHT;
  return (
    <section className="detail-table" aria-label={table.title}>
      <h2 title={table.from}>
        {table.title} <span className="muted">{table.counted}</span>
        {table.rows.length > 0 && <TableExport name={table.id} data={() => ({ header: table.columns, rows: table.rows.map((row) => row.map((v, i) => textOf(v, i))) })} />}
        {table.rows.length > 0 && table.columns.length > 2 && menu}
      </h2>
      {table.rows.length === 0 ? (
        <p className="empty-note">{live ? 'None yet.' : 'None.'}</p>
      ) : (
        <div className="detail-table-scroll" ref={ref} onScroll={onScroll}>
          <table className="plain-table" aria-rowcount={table.rows.length + 1}>
            <colgroup>
              {shown.map((c, i) => (
                <col key={c.key} style={{ width: layout.widths[i] }} />
              ))}
            </colgroup>
            <thead>
              <tr>{shown.map(header)}</tr>
            </thead>
            <tbody>
              {first > 0 && <tr aria-hidden="true" style={{ height: first * ROW_HEIGHT }} />}
              {table.rows.slice(first, last).map((row, r) => (
                <tr key={first + r} aria-rowindex={first + r + 2}>
                  {cells(row)}
                </tr>
              ))}
              {below > 0 && <tr aria-hidden="true" style={{ height: below }} />}
            </tbody>
          </table>
        </div>
      )}
      {table.note && <p className="muted table-note">{table.note}</p>}
    </section>
  );
}

/** The tables a cell's format adds to its view (a collection's agents, tasks, rollouts, failures, aggregate); a rollout opens in the Transcript tab. */
export function DetailTables() {
  const tables = useCell((s) => s.detail?.tables ?? []);
  const live = useCell((s) => (s.detail ? isLive(s.detail.summary.state) : false));
  const setCellPlace = useApp((s) => s.setCellPlace);
  const open = useCallback((unit: string) => setCellPlace({ tab: 'transcript', episode: unit }), [setCellPlace]);
  return (
    <div className="detail-tables">
      {tables.map((t) => (
        <DetailTableView key={t.id} table={t} onOpen={open} live={live} />
      ))}
    </div>
  );
}
