import { type Problem, problem } from '../../shared/model';
import { isObject, type JsonObject } from './json';
import { parseJson, TooDeepError } from '../../shared/json';

/** Longer lines are reported and skipped rather than parsed. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface JsonlRecord {
  /** 1-based line number in the file. */
  line: number;
  value: JsonObject;
}

/** What the complete lines of a chunk make, each line's record or problem. */
export interface LineChunk<T> {
  records: T[];
  problems: Problem[];
  /** Bytes of complete lines consumed; a partial last line is left for the next read. */
  consumed: number;
  lines: number;
}

/**
 * Each complete line of a chunk with its number and the byte it starts at (a partial last line is left
 * for the next read); the bytes and lines it took. `bytes` counts a line's bytes (1 a character for text
 * read as latin1).
 */
export function eachLine(text: string, firstLine: number, visit: (raw: string, line: number, at: number) => void, bytes: (raw: string) => number = Buffer.byteLength): { consumed: number; lines: number } {
  let start = 0;
  let line = firstLine;
  let consumed = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end < 0) break;
    const raw = text.slice(start, end);
    visit(raw, line, consumed);
    consumed += bytes(raw) + 1;
    start = end + 1;
    line++;
  }
  return { consumed, lines: line - firstLine };
}

/**
 * Parses the complete lines of a JSONL text. A line without its newline yet is held back; a malformed
 * line becomes a problem with its file and line number and the lines after it still count.
 */
export function parseJsonl(text: string, file: string, firstLine = 1): LineChunk<JsonlRecord> {
  const records: JsonlRecord[] = [];
  const problems: Problem[] = [];
  const taken = eachLine(text, firstLine, (raw, line) => {
    const trimmed = raw.trim();
    if (trimmed.length > MAX_LINE_BYTES) {
      problems.push(problem(file, `line of ${trimmed.length} characters is too long; skipped`, { line }));
    } else if (trimmed !== '') {
      try {
        const value: unknown = parseJson(trimmed);
        if (isObject(value)) records.push({ line, value });
        else problems.push(problem(file, 'not a JSON object; skipped', { line }));
      } catch (error) {
        problems.push(problem(file, error instanceof TooDeepError ? error.message : `malformed JSON (${(error as Error).message}); skipped`, { line }));
      }
    }
  });
  return { records, problems, ...taken };
}
