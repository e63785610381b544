// Counts as people read them, the same in the window, the CLI and the problems a runner reports.

/** One formatter for every whole count: toLocaleString builds one a call (a list of 10,000 rows spent 1.1 s there). */
const WHOLE = new Intl.NumberFormat('en-US');
/** A count with its thousands grouped: 12,345. */
export const whole = (value: number) => WHOLE.format(value);

/** A size in megabytes (of 2^20 bytes), to `digits` places: "12 MB", "1.1 MB". */
export const megabytes = (bytes: number, digits = 0) => `${(bytes / (1 << 20)).toFixed(digits)} MB`;

/** Items as a sentence offers them: "a", "a or b", "a, b or c". */
export const oneOf = (items: readonly string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1) as string}`);

/** A count and what it counts, one or many: "1 cell", "12,345 cells". */
export const counted = (value: number, one: string, many = `${one}s`) => `${whole(value)} ${value === 1 ? one : many}`;

/** A share as a percentage: 0.4471 is "44.7%". */
export const share = (value: number, digits = 1) => `${(value * 100).toFixed(digits)}%`;

const CENTS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const SMALL = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumSignificantDigits: 2 });
/**
 * An amount in US dollars, in cents ("$1,234.57"); one under a cent that is not nothing to its first two
 * significant digits ("$0.00083"), never "$0.00": a small model's run costs that little, and is not free.
 */
export const dollars = (value: number) => (value !== 0 && Math.abs(value) < 0.005 ? SMALL : CENTS).format(value);

const FINE = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumSignificantDigits: 3 });
/**
 * An amount set beside others like it (a unit's cost, a chart's axis): "$0", cents from a dollar on, and under
 * a dollar three significant digits, so $0.0123 and $0.0149 (or an axis's $0.0125 and $0.015) stay apart.
 */
export function fineDollars(value: number): string {
  if (value === 0) return '$0';
  if (Math.abs(value) >= 1) return CENTS.format(value);
  // Significant digits drop a trailing zero: $0.5 reads as cents, $0.50.
  return FINE.format(value).replace(/\.(\d)$/, (_, digit: string) => `.${digit}0`);
}
