// A table as people take it elsewhere: TSV for the clipboard (a spreadsheet pastes it into cells), CSV for
// a file, Markdown for a note or an issue. Every value is a string as the table shows it.

export interface TableData {
  header: string[];
  rows: string[][];
}

/** What a spreadsheet reads as a number: digits, maybe a sign, thousands' commas, a fraction, an exponent, a percent sign. */
const isNumber = (v: string) => {
  const bare = v.replace(/,/g, '').replace(/\s*%$/, '');
  return /\d/.test(bare) && Number.isFinite(Number(bare));
};

/**
 * A spreadsheet runs a value that starts with =, +, -, @, a tab or a carriage return as a formula, and a
 * run's names and messages are anyone's (a folder named `=HYPERLINK(...)`): such a value, unless it is a
 * number, is kept as text by a quote before it (OWASP's advice on CSV injection).
 */
const inert = (v: string) => (/^[=+\-@\t\r]/.test(v) && !isNumber(v) ? `'${v}` : v);

/** Tab-separated: a tab or newline inside a value becomes a space (a spreadsheet would split it). */
export const toTsv = ({ header, rows }: TableData) => [header, ...rows].map((row) => row.map((v) => inert(v.replace(/[\t\r\n]+/g, ' '))).join('\t')).join('\n');

/** RFC 4180: a value with a comma, a quote or a line break is quoted, its quotes doubled. */
const csvValue = (text: string) => {
  const v = inert(text);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
};
export const toCsv = ({ header, rows }: TableData) => `${[header, ...rows].map((row) => row.map(csvValue).join(',')).join('\r\n')}\r\n`;

/** A Markdown table: pipes escaped, line breaks as spaces. */
const mdValue = (v: string) => v.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
export const toMarkdown = ({ header, rows }: TableData) =>
  [`| ${header.map(mdValue).join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`, ...rows.map((row) => `| ${row.map(mdValue).join(' | ')} |`)].join('\n');
