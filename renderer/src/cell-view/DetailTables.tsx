import { useState, type TdHTMLAttributes } from 'react';
import { whole } from '../format';
import type { DetailTable, TableValue } from '../../../shared/cell-detail';
import { useCell } from './context';
import { TranscriptView } from './TranscriptView';
import { usePlainColumns } from '../plainColumns';
import { columnLayout, useRoom, type ColumnLayout } from '../table-layout';
import { useVirtualRows } from '../cell-list/useVirtualRows';

const ROW_HEIGHT = 24;

/** A value as a table cell shows it: whole, a fraction to four places, a dash for nothing. */
function asText(value: TableValue): string {
  if (value === null) return '–';
  if (typeof value === 'number') return Number.isInteger(value) ? whole(value) : String(Number(value.toFixed(4)));
  return String(value);
}

/**
 * One table, its columns as wide as their content (measured, not left to the browser's table layout) and
 * only the rows in its box rendered: a collection's 200 rollouts of 14 columns took 260 ms of layout whole.
 */
export function DetailTableView({ table, onOpen }: { table: DetailTable; onOpen: (unit: string) => void }) {
  const numeric = table.columns.map((_, i) => table.rows.length > 0 && table.rows.every((row) => row[i] === null || typeof row[i] === 'number'));
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
        numeric: numeric[i],
        fit: (row) => asText(row[i] as TableValue),
        render: (row) => {
          const value = row[i] as TableValue;
          if (i > 0 || table.opens !== 'transcript') return asText(value);
          return (
            <button className="link" onClick={() => onOpen(String(value))} aria-label={`Open rollout ${asText(value)}`}>
              {asText(value)}
            </button>
          );
        },
        // A value cut to its column's width says itself whole on hover.
        td: (row): TdHTMLAttributes<HTMLTableCellElement> => {
          const text = asText(row[i] as TableValue);
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
      <h2>
        {table.title} <span className="muted">{whole(table.rows.length)}</span>
        {table.rows.length > 0 && table.columns.length > 2 && menu}
      </h2>
      {table.rows.length === 0 ? (
        <p className="empty-note">None yet.</p>
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

/** The tables a cell's format adds to its view (a collection's agents, tasks, rollouts, failures, aggregate). */
export function DetailTables() {
  const tables = useCell((s) => s.detail?.tables ?? []);
  const cellId = useCell((s) => s.detail?.summary.id);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="detail-tables">
      {open && cellId && <TranscriptView cellId={cellId} unit={open} onClose={() => setOpen(null)} />}
      {tables.map((t) => (
        <DetailTableView key={t.id} table={t} onOpen={setOpen} />
      ))}
    </div>
  );
}
