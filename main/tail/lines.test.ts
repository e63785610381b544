import { describe, expect, it } from 'vitest';
import { LineTailer } from './lines';

describe('LineTailer', () => {
  it('holds a partial last line until its newline arrives, and never returns a line twice', () => {
    const tailer = new LineTailer('t.jsonl');
    const first = tailer.push(Buffer.from('{"a":1}\n{"b":'));
    expect(first.records.map((r) => r.value)).toEqual([{ a: 1 }]);
    expect(tailer.offset).toBe(8);
    expect(tailer.held).toBe(5);
    const second = tailer.push(Buffer.from('2}\n'));
    expect(second.records).toEqual([{ line: 2, end: 16, value: { b: 2 } }]);
    expect(tailer.push(Buffer.alloc(0)).records).toEqual([]);
  });

  it('reports a malformed line with its number and keeps the lines after it', () => {
    const tailer = new LineTailer('t.jsonl');
    const chunk = tailer.push(Buffer.from('{"a":1}\n{"a":\n[1]\n{"a":3}\n'));
    expect(chunk.records.map((r) => [r.line, r.value])).toEqual([[1, { a: 1 }], [4, { a: 3 }]]);
    expect(chunk.problems.map((p) => [p.file, p.line])).toEqual([['t.jsonl', 2], ['t.jsonl', 3]]);
  });

  it('refuses a line nested past the depth limit, saying so with its number, and keeps the lines after it', () => {
    const tailer = new LineTailer('t.jsonl');
    const chunk = tailer.push(Buffer.from(`{"a":1}\n${'['.repeat(100_000)}${']'.repeat(100_000)}\n{"a":3}\n`));
    expect(chunk.records.map((r) => r.value)).toEqual([{ a: 1 }, { a: 3 }]);
    expect(chunk.problems).toEqual([{ file: 't.jsonl', line: 2, severity: 'error', message: 'nested deeper than 256 levels; not read' }]);
  });

  it('counts bytes, not characters, across a multi-byte character split between pushes', () => {
    const tailer = new LineTailer('t.jsonl');
    const bytes = Buffer.from('{"text":"é✓"}\n');
    tailer.push(bytes.subarray(0, 11));
    const chunk = tailer.push(bytes.subarray(11));
    expect(chunk.records[0]?.value).toEqual({ text: 'é✓' });
    expect(tailer.offset).toBe(bytes.length);
  });

  it('says where a line is when it started mid-file and line numbers are unknown', () => {
    const tailer = new LineTailer('big.jsonl', { offset: 1000, line: null });
    const chunk = tailer.push(Buffer.from('oops\n'));
    expect(chunk.problems[0]).toMatchObject({ file: 'big.jsonl at byte 1000' });
  });
});
