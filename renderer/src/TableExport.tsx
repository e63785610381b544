import { useState } from 'react';
import { toCsv, toMarkdown, toTsv, type TableData } from './table-export';

/** A file of `text` saved by the browser under `name`. */
function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Copy a table as TSV (pastes into a spreadsheet's cells), save it as CSV, and (`markdown`) copy it as a
 * Markdown table. `data` is read when asked: the rows as the table shows them now, every one of them.
 */
export function TableExport({ name, data, markdown = false }: { name: string; data: () => TableData; markdown?: boolean }) {
  const [said, setSaid] = useState<string | null>(null);
  const copy = (text: string, what: string) =>
    navigator.clipboard.writeText(text).then(
      () => setSaid(`${what} copied`),
      (error: Error) => setSaid(`not copied: ${error.message}`),
    );
  const file = `${name.replace(/[^\w.-]+/g, '_')}.csv`;
  return (
    <span className="table-export" role="group" aria-label={`Export ${name}`}>
      <button className="link" onClick={() => void copy(toTsv(data()), 'TSV')} title="Copy the rows shown as tab-separated values: they paste into a spreadsheet's cells">
        Copy
      </button>
      <button className="link" onClick={() => download(file, toCsv(data()), 'text/csv')} title={`Save the rows shown as ${file}`}>
        CSV
      </button>
      {markdown && (
        <button className="link" onClick={() => void copy(toMarkdown(data()), 'Markdown')} title="Copy as a Markdown table, for a note or an issue">
          Markdown
        </button>
      )}
      {said && (
        <span className="muted" role="status">
          {said}
        </span>
      )}
    </span>
  );
}
