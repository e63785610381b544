import type { ReadContext } from '../../runners';
import { readCell, summaryOf } from '../../runners/read';
import { mapLimited } from '../concurrency';
import { rootTrouble, type ScanResult } from '../scan';
import { discoveryCommand, parseDiscovery } from './discover';
import type { RemoteHost } from './host';

/** Remote reads in flight at once: one connection carries them all. */
const PARALLEL_REMOTE = 8;

/** Scans a remote runs root with one command, then reads each cell over SFTP. Never writes anything there. */
export async function scanRemoteRoot(host: RemoteHost, root: string, ctx: ReadContext): Promise<ScanResult> {
  const trouble = await rootTrouble(ctx.fs, root, `${host.alias}:${root}`);
  if (trouble) return { ...trouble, cells: [] };
  const listing = await host.exec(discoveryCommand(root));
  const found = parseDiscovery(listing.stdout, root);
  const cells = await mapLimited(found, PARALLEL_REMOTE, async ({ dir, format }) => summaryOf(await readCell(dir, format, ctx), root));
  return { state: 'ok', cells, problems: [] };
}
