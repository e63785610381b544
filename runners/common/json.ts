import { type Problem, problem } from '../../shared/model';
import type { CellFs } from './fs';
import { parseJson, TooDeepError } from '../../shared/json';

/** JSON files larger than this are not parsed: no runner writes one, and a huge one would stall the scan. */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;
const RETRIES = 3;
const RETRY_DELAY_MS = 40;

export type JsonObject = Record<string, unknown>;

export interface JsonRead {
  /** The file's object, or the last good copy when the file is caught half-written; null when there is none. */
  value: JsonObject | null;
  /** True when `value` is the last good copy rather than the file as it is now. */
  stale: boolean;
  problem?: Problem;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The type a format expects of a field; `timestamp` is epoch seconds or an ISO 8601 string. */
export type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'timestamp';
/** The fields of a JSON file that a format reads, with their types; a field inside an object by its path (`protocol.episodes`). */
export type Shape = Record<string, FieldType>;

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function fits(value: unknown, type: FieldType): boolean {
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return isObject(value);
  if (type === 'timestamp') return typeof value === 'string' || typeof value === 'number';
  return typeof value === type;
}

/** A problem for each field of `shape` that `value` holds with another type (absent and null are fine). */
export function shapeProblems(value: JsonObject, shape: Shape, label: string): Problem[] {
  return Object.entries(shape).flatMap(([field, type]) => {
    const found = field.includes('.') ? field.split('.').reduce<unknown>((inside, key) => (isObject(inside) ? inside[key] : undefined), value) : value[field];
    if (found === undefined || found === null || fits(found, type)) return [];
    return [problem(label, `"${field}" is ${typeOf(found)}, expected ${type === 'array' || type === 'object' ? 'an' : 'a'} ${type}; ignored`)];
  });
}

/**
 * Reads JSON files written in place by live processes: a parse failure is retried (the writer may be
 * mid-write), and when it persists the last good copy of that file is kept and the failure reported.
 */
export class JsonReader {
  private readonly lastGood = new Map<string, JsonObject>();

  /** `keepLastGood: false` where thousands of cells are read and the index keeps their rows instead. */
  constructor(
    private readonly fs: CellFs,
    private readonly options: { keepLastGood?: boolean } = {},
  ) {}

  /** `label` names the file in problems (its path relative to the cell). A missing file is not a problem. */
  async read(path: string, label: string): Promise<JsonRead> {
    let message = '';
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      if (attempt > 0) await sleep(RETRY_DELAY_MS);
      const file = await this.fs.read(path, MAX_JSON_BYTES);
      if (!file) {
        const exists = await this.fs.stat(path);
        if (!exists) return { value: null, stale: false };
        message = exists.kind === 'file' ? 'cannot be read (permission denied?)' : 'is not a file';
        break;
      }
      if (file.truncated) {
        message = `is larger than ${MAX_JSON_BYTES / 1024 / 1024} MB; not read`;
        break;
      }
      if (file.text.trim() === '') {
        message = 'is empty (being written?)';
        continue;
      }
      try {
        const value: unknown = parseJson(file.text);
        if (!isObject(value)) {
          message = 'is not a JSON object';
          break;
        }
        if (this.options.keepLastGood !== false) this.lastGood.set(path, value);
        return { value, stale: false };
      } catch (error) {
        if (error instanceof TooDeepError) {
          message = `is ${error.message}`;
          break;
        }
        message = `is not valid JSON (${(error as Error).message}); half-written?`;
      }
    }
    const kept = this.lastGood.get(path) ?? null;
    return {
      value: kept,
      stale: kept !== null,
      problem: problem(label, `${label} ${message}${kept ? '; showing the last good copy' : ''}`),
    };
  }
}
