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

export interface JsonlChunk {
  records: JsonlRecord[];
  problems: Problem[];
  /** Bytes of complete lines consumed; a partial last line is left for the next read. */
  consumed: number;
  lines: number;
}

/**
 * Parses the complete lines of a JSONL text. A line without its newline yet is held back; a malformed
 * line becomes a problem with its file and line number and the lines after it still count.
 */
export function parseJsonl(text: string, file: string, firstLine = 1): JsonlChunk {
  const records: JsonlRecord[] = [];
  const problems: Problem[] = [];
  let start = 0;
  let line = firstLine;
  let consumed = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end < 0) break;
    const raw = text.slice(start, end);
    consumed += Buffer.byteLength(raw) + 1;
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
    start = end + 1;
    line++;
  }
  return { records, problems, consumed, lines: line - firstLine };
}
