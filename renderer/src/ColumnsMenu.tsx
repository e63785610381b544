import type { ColumnPrefs, SizedColumn } from './table-layout';

/** Which of a table's columns are shown: a checkbox each, remembered with the table's other preferences. */
export function ColumnsMenu({ table, columns, prefs, onToggle }: { table: string; columns: SizedColumn<never>[]; prefs: ColumnPrefs; onToggle: (key: string) => void }) {
  const hidden = columns.filter((c) => prefs.hidden.includes(c.key)).length;
  return (
    <details className="columns-menu">
      <summary aria-label={`Columns of ${table}`}>Columns{hidden ? ` (${hidden} hidden)` : ''}</summary>
      <fieldset>
        <legend>Show</legend>
        {columns.map((column) => (
          <label key={column.key}>
            <input type="checkbox" checked={column.always || !prefs.hidden.includes(column.key)} disabled={column.always} onChange={() => onToggle(column.key)} /> {column.title}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
