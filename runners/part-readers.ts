// The readers whose long local reads are split among threads (common/split-lines.ts): those whose records
// can cross threads (a packer), by name, as a thread reading parts is told which one to read them by.
import type { LineReader } from './common/line-steps';
import { NEMO_ROWS } from './nemo-gym/read';

export const PART_READERS: ReadonlyMap<string, LineReader<unknown>> = new Map([NEMO_ROWS].map((reader) => [reader.name, reader as LineReader<unknown>]));
