// A table as people take it elsewhere: TSV for the clipboard (a spreadsheet pastes it into cells), CSV for
// a file, Markdown for a note or an issue. Every value is a string as the table shows it.

export interface TableData {
  header: string[];
  rows: string[][];
}

/** Tab-separated: a tab or newline inside a value becomes a space (a spreadsheet would split it). */
export const toTsv = ({ header, rows }: TableData) => [header, ...rows].map((row) => row.map((v) => v.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n');

/** RFC 4180: a value with a comma, a quote or a line break is quoted, its quotes doubled. */
const csvValue = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
export const toCsv = ({ header, rows }: TableData) => `${[header, ...rows].map((row) => row.map(csvValue).join(',')).join('\r\n')}\r\n`;

/** A Markdown table: pipes escaped, line breaks as spaces. */
const mdValue = (v: string) => v.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
export const toMarkdown = ({ header, rows }: TableData) =>
  [`| ${header.map(mdValue).join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`, ...rows.map((row) => `| ${row.map(mdValue).join(' | ')} |`)].join('\n');
