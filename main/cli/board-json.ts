// `board --json`: {"cells": [...], "comparisons": [...]} as runners/FORMATS.md pins it, a cell or a comparison
// a line. 180,000 comparisons are written as bytes from the comparison table's columns, each path and each
// p-value's text made once: made into objects and strings first, they took longer than the comparing.
import { BOARD_FIELDS } from '../../shared/board';
import { decideAt, holmLevels, unitsLeft, type ComparisonTable } from '../../shared/board-comparisons';
import { frontierPoint, paretoByPath } from '../../shared/frontier';
import { wilson95 } from '../../shared/stats';
import type { CellSummary } from '../../shared/model';
import { cellJson } from './cell-json';
import type { Io } from './io';

/** JSON that escapes every control character in its strings (JSON.stringify leaves U+007F-U+009F as they are): printable as it is. */
export const terminalJson = (value: unknown): string => JSON.stringify(value).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const BUFFER_BYTES = 1 << 20;

/** Output gathered into large buffers, written when full. */
class Bytes {
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private at = 0;

  constructor(private readonly io: Io) {}

  bytes(bytes: Buffer): void {
    if (this.at + bytes.length > this.buffer.length) this.flush(bytes.length);
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
  }

  text(text: string): void {
    const length = Buffer.byteLength(text);
    if (this.at + length > this.buffer.length) this.flush(length);
    this.at += this.buffer.write(text, this.at);
  }

  /** A count (a whole number from 0) in decimal. */
  count(value: number): void {
    if (this.at + 16 > this.buffer.length) this.flush(16);
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    for (let i = digits - 1, rest = value; i >= 0; i--, rest = Math.floor(rest / 10)) this.buffer[this.at + i] = 48 + (rest % 10);
    this.at += digits;
  }

  /** Writes what is gathered; the next buffer holds at least `room` bytes. */
  flush(room = 0): void {
    if (this.at > 0) this.io.write(this.buffer.subarray(0, this.at));
    // A fresh buffer: the written one may still be on its way out.
    this.buffer = Buffer.allocUnsafe(Math.max(BUFFER_BYTES, room));
    this.at = 0;
  }
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
/** A comparison's line between its counts. */
const S = { onlyA: ascii(',"only_a":'), onlyB: ascii(',"only_b":'), neither: ascii(',"neither":'), leftOut: ascii(',"left_out":') };

/** A cell as board --json prints it: as in status, with its labels, counts and interval (assigned: spreading 10,000 rows took 0.25 s). */
function boardCell(cell: CellSummary, pareto: boolean | null) {
  const { scored, successes } = cell.episodes;
  return Object.assign(cellJson(cell), cell.labels, { scored, successes, ci95: wilson95(successes, scored), cost_per_unit: frontierPoint(cell)?.cost ?? null, pareto });
}

/** How many cells are written between turns of the event loop: the comparing goes on in a worker meanwhile, its answer waiting. */
const CELLS_A_TURN = 500;

/**
 * Each comparison's `decides_in` and `futile` as bytes (shared/decide.ts): one search for each distinct p,
 * discordant pair, paired count and units left, found by number (a key a comparison took longer than its search).
 */
function decidePieces(table: ComparisonTable, planned: Map<string, number | null>): (k: number) => Buffer {
  const levels = holmLevels(table);
  const plannedAt = table.paths.map((path) => planned.get(path) ?? null);
  const byCounts = new Map<number | string, Map<number | string, Buffer>>();
  return (k) => {
    const b = table.onlyA[k] as number;
    const c = table.onlyB[k] as number;
    const paired = (table.both[k] as number) + b + c + (table.neither[k] as number);
    const left = unitsLeft(plannedAt[table.a[k] as number] as number | null, plannedAt[table.b[k] as number] as number | null, paired);
    const p = table.p[k] as number;
    const outer = b < 32_768 && c < 32_768 && p < 1 << 22 ? (p * 32_768 + b) * 32_768 + c : `${p},${b},${c}`;
    const inner = paired < 2 ** 31 && (left ?? 0) < 2 ** 21 - 1 ? paired * 2 ** 21 + (left === null ? 0 : left + 1) : `${paired},${left}`;
    let pieces = byCounts.get(outer);
    if (!pieces) byCounts.set(outer, (pieces = new Map()));
    let piece = pieces.get(inner);
    if (!piece) {
      const { further, futile } = decideAt(table, k, levels, (path) => planned.get(path) ?? null);
      pieces.set(inner, (piece = ascii(`,"decides_in":${further},"futile":${futile}}`)));
    }
    return piece;
  };
}

/** Writes `board --json`: the cells now, the comparisons once `compared` has them. */
export async function writeBoardJson(io: Io, cells: CellSummary[], compared: Promise<ComparisonTable>): Promise<void> {
  // Awaited once the cells are out: a failure meanwhile is not left unhandled.
  compared.catch(() => undefined);
  const out = new Bytes(io);
  const pareto = paretoByPath(cells);
  out.text('{\n  "cells": [');
  for (let i = 0; i < cells.length; i++) {
    if (i > 0 && i % CELLS_A_TURN === 0) await new Promise(setImmediate);
    out.text(`${i === 0 ? '\n' : ',\n'}    ${terminalJson(boardCell(cells[i] as CellSummary, pareto.get((cells[i] as CellSummary).path) ?? null))}`);
  }
  out.text(`${cells.length ? '\n  ' : ''}],\n  "comparisons": [`);
  const table = await compared;
  // Each comparison is three pieces made once (its a's path, its b's path with its field, its p-values) and its five counts.
  const quoted = table.paths.map((path) => terminalJson(path));
  const aPieces = quoted.map((path) => [Buffer.from(`\n    {"a":${path},"b":`), Buffer.from(`,\n    {"a":${path},"b":`)]);
  const bPieces = quoted.map((path) => BOARD_FIELDS.map((field) => Buffer.from(`${path},"field":"${field}","both":`)));
  const pPieces = Array.from(table.pValues, (p, id) => ascii(`,"p_value":${p},"p_adjusted":${table.adjusted[id]}`));
  const decidePiece = decidePieces(table, new Map(cells.map((c) => [c.path, c.episodes.planned])));
  for (let k = 0; k < table.a.length; k++) {
    out.bytes((aPieces[table.a[k] as number] as Buffer[])[k === 0 ? 0 : 1] as Buffer);
    out.bytes((bPieces[table.b[k] as number] as Buffer[])[table.field[k] as number] as Buffer);
    out.count(table.both[k] as number);
    out.bytes(S.onlyA);
    out.count(table.onlyA[k] as number);
    out.bytes(S.onlyB);
    out.count(table.onlyB[k] as number);
    out.bytes(S.neither);
    out.count(table.neither[k] as number);
    out.bytes(S.leftOut);
    out.count(table.leftOut[k] as number);
    out.bytes(pPieces[table.p[k] as number] as Buffer);
    out.bytes(decidePiece(k));
  }
  out.text(`${table.a.length ? '\n  ' : ''}]\n}\n`);
  out.flush();
}
