// The kinds of error the core sends the window: one table, each kind with its words and what to do about
// it, for every view and the CLI. An error crosses a transport as its kind (its class's name) and message
// (shared/contract.ts CallError); a kind not in the table is shown by its name.

export interface ErrorKind {
  /** What the window calls it, after what failed: "cell: not found". */
  label: string;
  /** What to do about it; null where the message says all. */
  tip: string | null;
}

const KINDS = {
  NotFoundError: { label: 'not found', tip: 'it may have been removed or renamed since it was listed' },
  DispatchError: { label: 'refused', tip: 'the window and the core disagree on this call: reload the window' },
  HostUnavailableError: { label: 'host unavailable', tip: 'the host is reconnecting; what it shows is read again once it is back' },
  SlotError: { label: 'bad slot', tip: 'a slot names a cell, or cell@vNNN for a policy version' },
  CompareError: { label: 'cannot compare', tip: null },
  FramesError: { label: 'no frames', tip: null },
  OutputTooLarge: { label: 'too much output', tip: null },
  Error: { label: 'failed', tip: null },
} satisfies Record<string, ErrorKind>;

export type ErrorName = keyof typeof KINDS;

/** How an error is shown: its kind's words, or its own name for a kind not in the table. */
export function kindOf(error: { name: string }): ErrorKind {
  return Object.hasOwn(KINDS, error.name) ? KINDS[error.name as ErrorName] : { label: error.name, tip: null };
}

/** Anything a promise rejected with, as an Error that keeps its kind. */
export const asError = (thrown: unknown): Error => (thrown instanceof Error ? thrown : new Error(String(thrown)));

/** A cell, root or path the call names is not there: told apart from bad arguments and failures across the contract. */
export class NotFoundError extends Error {
  override name: ErrorName = 'NotFoundError';
}

/** A call that is not in the contract, or whose arguments are not what it takes. */
export class DispatchError extends Error {
  override name: ErrorName = 'DispatchError';
}

/** The host is not connected now; callers try again once it reconnects. */
export class HostUnavailableError extends Error {
  override name: ErrorName = 'HostUnavailableError';
}

/** A comparison's slot that names no cell, version or seed there is. */
export class SlotError extends Error {
  override name: ErrorName = 'SlotError';
}

/** Two sides that cannot be paired: two formats, a version that is not there. */
export class CompareError extends Error {
  override name: ErrorName = 'CompareError';
}

/** A command on a host printed more than is read of it, and was stopped. */
export class OutputTooLarge extends Error {
  override name: ErrorName = 'OutputTooLarge';
}

/** A cell's frames that cannot be listed or served. */
export class FramesError extends Error {
  override name: ErrorName = 'FramesError';
}
