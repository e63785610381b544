import { JsonReader, type ReadContext } from '../../runners';
import { readCell, summaryOf } from '../../runners/read';
import { mapLimited } from '../concurrency';
import type { ScanResult } from '../scan';
import { discoveryCommand, parseDiscovery } from './discover';
import type { RemoteHost } from './host';
import { sftpFs } from './sftp-fs';
import { problem } from '../../shared/model';

/** Remote reads in flight at once: one connection carries them all. */
const PARALLEL_REMOTE = 8;

export function remoteContext(host: RemoteHost, json?: JsonReader): ReadContext {
  const fs = sftpFs(() => host.sftp());
  return { fs, json: json ?? new JsonReader(fs), now: Date.now(), host: host.alias };
}

/** Scans a remote runs root with one command, then reads each cell over SFTP. Never writes anything there. */
export async function scanRemoteRoot(host: RemoteHost, root: string, ctx: ReadContext): Promise<ScanResult> {
  const where = `${host.alias}:${root}`;
  const info = await ctx.fs.stat(root);
  if (!info) return { state: 'missing', cells: [], problems: [problem(where, 'runs root does not exist on the host; check the path')] };
  if (info.kind !== 'dir') return { state: 'missing', cells: [], problems: [problem(where, 'runs root is not a folder')] };
  const listing = await host.exec(discoveryCommand(root));
  const found = parseDiscovery(listing.stdout);
  const cells = await mapLimited(found, PARALLEL_REMOTE, async ({ dir, format }) => summaryOf(await readCell(dir, format, ctx), root));
  return { state: 'ok', cells, problems: [] };
}
