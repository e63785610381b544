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
  it('as Markdown: a header, its rule, pipes escaped', () => {
    expect(toMarkdown(DATA)).toBe('| name | note |\n| --- | --- |\n| std_a | ended, "ok" |\n| b\\|c | two lines\tand a tab |');
  });
});
