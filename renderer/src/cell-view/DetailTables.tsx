import { useState } from 'react';
import type { DetailTable, TableValue } from '../../../shared/cell-detail';
import { useCell } from './context';
import { TranscriptView } from './TranscriptView';

/** A value as a table cell shows it: whole, a fraction to four places, a dash for nothing. */
function shown(value: TableValue): string {
  if (value === null) return '–';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Number(value.toFixed(4)));
  return String(value);
}

function Table({ table, onOpen }: { table: DetailTable; onOpen: (unit: string) => void }) {
  const numeric = table.columns.map((_, i) => table.rows.length > 0 && table.rows.every((row) => row[i] === null || typeof row[i] === 'number'));
  return (
    <section className="detail-table" aria-label={table.title}>
      <h2>
        {table.title} <span className="muted">{table.rows.length.toLocaleString('en-US')}</span>
      </h2>
      {table.rows.length === 0 ? (
        <p className="empty-note">None yet.</p>
      ) : (
        <div className="detail-table-scroll">
          <table className="plain-table">
            <thead>
              <tr>
                {table.columns.map((c, i) => (
                  <th key={c} className={numeric[i] ? 'num' : undefined} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((value, i) => (
                    <td key={i} className={numeric[i] ? 'num' : undefined} title={typeof value === 'string' && value.length > 40 ? value : undefined}>
                      {i === 0 && table.opens === 'transcript' ? (
                        <button className="link" onClick={() => onOpen(String(value))} aria-label={`Open rollout ${shown(value)}`}>
                          {shown(value)}
                        </button>
                      ) : (
                        shown(value)
                      )}
                    </td>
                  ))}
                </tr>
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
