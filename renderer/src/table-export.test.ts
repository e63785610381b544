import { describe, expect, it } from 'vitest';
import { toCsv, toMarkdown, toTsv } from './table-export';

const DATA = { header: ['name', 'note'], rows: [['std_a', 'ended, "ok"'], ['b|c', 'two\nlines\tand a tab']] };

describe('a table taken elsewhere', () => {
  it('as TSV: one line a row, a tab between values, none inside one', () => {
    expect(toTsv(DATA)).toBe('name\tnote\nstd_a\tended, "ok"\nb|c\ttwo lines and a tab');
  });
  it('as CSV: values with a comma, quote or line break quoted, quotes doubled, CRLF lines', () => {
    expect(toCsv(DATA)).toBe('name,note\r\nstd_a,"ended, ""ok"""\r\nb|c,"two\nlines\tand a tab"\r\n');
  });
  it('as TSV and CSV, a value a spreadsheet would run as a formula is text; a number stays a number', () => {
    const values = ['=HYPERLINK("http://x","open")', '+1+1', '-2+3', '@SUM(A1)', '\r=1', '-0.5', '+3', '-1,234.5', '-12.5 %', '-1e-3', '–', 'std_a'];
    const data = { header: ['value'], rows: values.map((v) => [v]) };
    const kept = ["'=HYPERLINK(\"http://x\",\"open\")", "'+1+1", "'-2+3", "'@SUM(A1)", ' =1', '-0.5', '+3', '-1,234.5', '-12.5 %', '-1e-3', '–', 'std_a'];
    expect(toTsv(data).split('\n').slice(1)).toEqual(kept);
    expect(toCsv(data)).toBe(`value\r\n"'=HYPERLINK(""http://x"",""open"")"\r\n'+1+1\r\n'-2+3\r\n'@SUM(A1)\r\n"'\r=1"\r\n-0.5\r\n+3\r\n"-1,234.5"\r\n-12.5 %\r\n-1e-3\r\n–\r\nstd_a\r\n`);
  });
  it('as Markdown: a header, its rule, pipes escaped', () => {
    expect(toMarkdown(DATA)).toBe('| name | note |\n| --- | --- |\n| std_a | ended, "ok" |\n| b\\|c | two lines\tand a tab |');
  });
});
