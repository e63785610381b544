import { useState } from 'react';
import { whole } from '../format';
import type { DetailTable, TableValue } from '../../../shared/cell-detail';
import { useCell } from './context';
import { TranscriptView } from './TranscriptView';
import { usePlainColumns } from '../plainColumns';

/** A value as a table cell shows it: whole, a fraction to four places, a dash for nothing. */
function asText(value: TableValue): string {
  if (value === null) return '–';
  if (typeof value === 'number') return Number.isInteger(value) ? whole(value) : String(Number(value.toFixed(4)));
  return String(value);
}

function Table({ table, onOpen }: { table: DetailTable; onOpen: (unit: string) => void }) {
  const numeric = table.columns.map((_, i) => table.rows.length > 0 && table.rows.every((row) => row[i] === null || typeof row[i] === 'number'));
  const { shown, menu, header, cells } = usePlainColumns<TableValue[]>(
    `table.${table.id}`,
    // A column is remembered by its name; a second of the same name (an environment's own `agent`) by its number too.
    table.columns.map((title, i) => {
      const before = table.columns.slice(0, i).filter((c) => c === title).length;
      return {
        key: before ? `${title}#${before + 1}` : title,
        title,
        always: i === 0,
        numeric: numeric[i],
        render: (row) => {
          const value = row[i] as TableValue;
          if (i > 0 || table.opens !== 'transcript') return asText(value);
          return (
            <button className="link" onClick={() => onOpen(String(value))} aria-label={`Open rollout ${asText(value)}`}>
              {asText(value)}
            </button>
          );
        },
        td: (row) => {
          const value = row[i];
          return { title: typeof value === 'string' && value.length > 40 ? value : undefined };
        },
      };
    }),
    table.title,
  );
  return (
    <section className="detail-table" aria-label={table.title}>
      <h2>
        {table.title} <span className="muted">{whole(table.rows.length)}</span>
        {table.rows.length > 0 && table.columns.length > 2 && menu}
      </h2>
      {table.rows.length === 0 ? (
        <p className="empty-note">None yet.</p>
      ) : (
        <div className="detail-table-scroll">
          <table className="plain-table">
            <thead>
              <tr>{shown.map(header)}</tr>
            </thead>
            <tbody>
              {table.rows.map((row, r) => (
                <tr key={r}>{cells(row)}</tr>
              ))}
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
        <Table key={t.id} table={t} onOpen={setOpen} />
      ))}
    </div>
  );
}
