import { append } from '../../shared/arrays';
import type { Io } from './io';

/** An Io that keeps what a command printed, for tests: a line a string, written bytes split into lines as well. */
export function capture(): { io: Io; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const decoder = new TextDecoder();
  let partial = '';
  const write = (bytes: Uint8Array) => {
    const lines = (partial + decoder.decode(bytes, { stream: true })).split('\n');
    partial = lines.pop() as string;
    append(out, lines);
  };
  return { io: { out: (l) => out.push(l), err: (l) => err.push(l), write }, out, err };
}
