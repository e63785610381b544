// The seed's `bigym-agent audit`: what in a session's transcript names a path outside the cell's
// sandbox (a custom harness runs under --isolation soft, where nothing stops it). Read as the transcript
// grows, a line at a time, never whole.
import { basename, posix } from 'node:path';
import { counted } from '../../shared/counts';
import type { DetailTable } from '../../shared/cell-detail';
import type { LineReader } from '../common/line-steps';
import type { AuditFinding } from '../types';
import { eachLine, type LineChunk } from '../common/jsonl';


export const TRANSCRIPT = 'transcript.md';

/** A path-like token: absolute, home-relative or climbing out (`..`), after a space, a quote, `=` or `(`. */
const PATH = /(?:^|[\s"'`=(,])((?:~\/|\.\.\/|\/)[^\s"'`()<>|;,]*)/g;

/** Whether a path the transcript names is the sandbox's: under `<cell>/sandbox`, wherever the cell was when it ran. */
function inSandbox(path: string, cell: string): boolean {
  if (path.startsWith('~')) return false;
  const sandbox = `/${basename(cell)}/sandbox`;
  // A relative path climbing out is resolved from the sandbox, where the agent ran.
  const resolved = path.startsWith('..') ? posix.resolve('/cell/sandbox', path) : posix.normalize(path);
  if (path.startsWith('..')) return resolved === '/cell/sandbox' || resolved.startsWith('/cell/sandbox/');
  return resolved.includes(`${sandbox}/`) || resolved.endsWith(sandbox);
}

/** The findings of a chunk of complete lines; a partial last line waits. */
function auditChunk(cell: string): LineReader<AuditFinding>['parse'] {
  return (bytes, _file, firstLine): LineChunk<AuditFinding> => {
    const records: AuditFinding[] = [];
    const taken = eachLine(bytes.toString('utf8'), firstLine, (raw, line) => {
      for (const match of raw.matchAll(PATH)) {
        const path = match[1] as string;
        // `//` is a URL's or a comment's, `/` alone names nothing.
        if (path === '/' || path.startsWith('//') || inSandbox(path, cell)) continue;
        records.push({ file: TRANSCRIPT, line, path, text: raw.length > 200 ? `${raw.slice(0, 200)}…` : raw });
      }
    });
    return { records, problems: [], ...taken };
  };
}

/** How a cell's transcript is audited, on from where the last read ended. */
export function auditReader(cell: string): LineReader<AuditFinding> {
  return { name: `audit:${cell}`, parse: auditChunk(cell), maxBytes: Number.MAX_SAFE_INTEGER, stepBytes: 4 * 1024 * 1024, maxLineBytes: 64 * 1024 * 1024 };
}

/** The Audit table of the cell view: each line of the transcript that names a path outside the sandbox. */
export function auditTable(findings: readonly AuditFinding[]): DetailTable {
  return {
    id: 'audit',
    title: 'Audit: paths outside the sandbox',
    columns: ['transcript.md line', 'path', 'line'],
    rows: findings.map((f) => [f.line, f.path, f.text]),
    note: 'what the transcript names outside sandbox/: under --isolation soft nothing stopped it (bigym-agent audit)',
    counted: counted(findings.length, 'line'),
    from: "transcript.md: each line naming an absolute path outside the cell's sandbox/, as bigym-agent audit finds them",
  };
}
