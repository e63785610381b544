// Counts as people read them, the same in the window, the CLI and the problems a runner reports.

/** One formatter for every whole count: toLocaleString builds one a call (a list of 10,000 rows spent 1.1 s there). */
const WHOLE = new Intl.NumberFormat('en-US');
/** A count with its thousands grouped: 12,345. */
export const whole = (value: number) => WHOLE.format(value);

/** A count and what it counts, one or many: "1 cell", "12,345 cells". */
export const counted = (value: number, one: string, many = `${one}s`) => `${whole(value)} ${value === 1 ? one : many}`;

/** A share as a percentage: 0.4471 is "44.7%". */
export const share = (value: number, digits = 1) => `${(value * 100).toFixed(digits)}%`;
