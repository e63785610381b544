import { describe, expect, it } from 'vitest';
import { splitAddress } from './paired';

describe('splitAddress: a cell, CELL@vNNN or FILE@AGENT', () => {
  const cells = new Set(['local:/runs/std_sdk_claude-sonnet-4@20250514_bare_default', 'local:/runs@2026/both.jsonl', 'local:/runs/bigym_task']);
  const isCell = (id: string) => cells.has(id);

  it('takes a cell whose name holds an @ as itself, and the part after the @ of any other as its version or agent', () => {
    expect(splitAddress('local:/runs/std_sdk_claude-sonnet-4@20250514_bare_default', isCell)).toEqual({ cell: 'local:/runs/std_sdk_claude-sonnet-4@20250514_bare_default', version: null });
    expect(splitAddress('local:/runs/bigym_task@v003', isCell)).toEqual({ cell: 'local:/runs/bigym_task', version: 'v003' });
    expect(splitAddress('local:/runs@2026/both.jsonl@hermes', isCell)).toEqual({ cell: 'local:/runs@2026/both.jsonl', version: 'hermes' });
  });

  it('reads an agent whose name holds @ and / to the cell before it', () => {
    expect(splitAddress('local:/runs@2026/both.jsonl@team/claude@2', isCell)).toEqual({ cell: 'local:/runs@2026/both.jsonl', version: 'team/claude@2' });
  });

  it('names a missing cell by the address before its last @, or the whole where a / follows that @', () => {
    expect(splitAddress('local:/runs/gone@v001', isCell)).toEqual({ cell: 'local:/runs/gone', version: 'v001' });
    expect(splitAddress('local:/runs/gone@2026/cell', isCell)).toEqual({ cell: 'local:/runs/gone@2026/cell', version: null });
    expect(splitAddress('local:/runs/gone/@x', isCell)).toEqual({ cell: 'local:/runs/gone/@x', version: null });
  });
});
