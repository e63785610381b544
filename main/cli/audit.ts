import { parseArgs } from 'node:util';
import { ADAPTERS } from '../../runners';
import type { AuditFinding } from '../../runners/types';
import { listCellsAt, withPlaces } from './places';
import { outJson, UsageError, type Io } from './io';
import { printable, problemLine } from './printable';
import { counted } from '../../shared/counts';

export const AUDIT_HELP = `cellwatch audit [--json] [--accept-new-host-key] ROOT_OR_CELL...

What each cell's transcript names outside its sandbox, line by line, as its runner's own audit does: a
custom harness runs under --isolation soft, where nothing stops it. A transcript of any size is read a
step at a time, never whole.
  --json   {"cells": [{"cell": id, "findings": [{"file", "line", "path", "text"}]}]}`;

export async function audit(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, 'accept-new-host-key': { type: 'boolean', default: false } },
  });
  if (positionals.length === 0) throw new UsageError(`name at least one runs root or cell\n\n${AUDIT_HELP}`);
  const audited = await withPlaces({ acceptNewHostKey: values['accept-new-host-key'] }, async (places) => {
    const listed = await listCellsAt(places, positionals);
    for (const p of listed.problems) io.err(problemLine(p));
    const found: { cell: { id: string; name: string }; findings: readonly AuditFinding[] }[] = [];
    for (const cell of listed.cells) {
      const reader = ADAPTERS[cell.format].capabilities.audit;
      if (reader) found.push({ cell, findings: await reader.read(cell.path, places.contextOf(cell).read()) });
    }
    return found;
  });
  if (values.json) {
    outJson(io, { cells: audited.map(({ cell, findings }) => ({ cell: cell.id, findings })) }, 2);
    return 0;
  }
  if (audited.length === 0) io.out(`No cell of ${positionals.join(', ')} keeps a transcript to audit.`);
  for (const { cell, findings } of audited) {
    io.out(printable(`${cell.name}: ${findings.length === 0 ? 'nothing outside the sandbox' : `${counted(findings.length, 'line')} naming a path outside the sandbox`}`));
    for (const f of findings) io.out(printable(`  ${f.file}:${f.line}  ${f.path}  ${f.text}`));
  }
  return 0;
}
