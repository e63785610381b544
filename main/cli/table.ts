import { printable } from './printable';
import { largest } from '../../shared/arrays';
import { wilson95 } from '../../shared/stats';
import { share } from '../../shared/counts';

/** Plain text columns, left-aligned, numbers right-aligned, two spaces apart. */
export function table(header: string[], cellRows: string[][], numeric: boolean[] = []): string {
  // Each cell on its one line: a name with a newline or an escape sequence cannot break or paint the table.
  const rows = cellRows.map((r) => r.map(printable));
  const widths = header.map((h, i) => largest(rows.map((r) => (r[i] ?? '').length), h.length));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export function percent(value: number | null, digits = 1): string {
  return value === null ? '-' : share(value, digits);
}

/** Successes of scored with the rate and its Wilson 95 % interval: `17/38 44.7% [30.1-60.3]`; `-` with nothing scored. */
export function success(successes: number, scored: number): string {
  const interval = wilson95(successes, scored);
  if (!interval) return '-';
  const [low, high] = interval.map((x) => (x * 100).toFixed(1));
  return `${successes}/${scored} ${percent(successes / scored)} [${low}-${high}]`;
}
