// The cells of a runs root on an SSH host, rescanned over the host's one connection; changes go out as
// deltas, as a local root's do.
import { problem, type CellsDelta, type CellSummary, type RootStatus } from '../../shared/model';
import type { CellContext } from '../cell-context';
import type { ScanResult } from '../scan';
import type { RemoteHost } from '../ssh/host';
import { scanRemoteRoot } from '../ssh/remote';

export class RemoteIndex {
  private scan: ScanResult | undefined;
  /** The last scan as JSON, to tell whether a rescan changed anything. */
  private fingerprint: string | undefined;

  constructor(
    readonly root: string,
    private readonly host: RemoteHost,
    private readonly path: string,
    private readonly context: CellContext,
    private readonly onDelta: (delta: CellsDelta) => void,
  ) {}

  status(source: RootStatus['source']): RootStatus {
    return { path: this.root, source, state: this.scan?.state ?? 'scanning', cellCount: this.scan?.cells.length ?? 0, problems: this.scan?.problems ?? [], progress: null };
  }

  list(): CellSummary[] {
    return this.scan?.cells ?? [];
  }

  private async read(): Promise<ScanResult> {
    const { alias, status } = this.host;
    const waiting = (message: string): ScanResult => this.scan ?? { state: 'unreadable', cells: [], problems: [problem(this.root, message)] };
    if (status.state !== 'connected') return waiting(`${alias} is ${status.state}${status.problem ? `: ${status.problem.message}` : ''}`);
    try {
      const scan = await scanRemoteRoot(this.host, this.path, this.context.read());
      return { ...scan, cells: scan.cells.map((c) => ({ ...c, root: this.root })) };
    } catch (error) {
      return waiting(`${alias}: ${(error as Error).message}`);
    }
  }

  /** Rescans and sends the rows that changed; true when anything the user sees changed. */
  async rescan(): Promise<boolean> {
    const scan = await this.read();
    const fingerprint = JSON.stringify(scan);
    if (fingerprint === this.fingerprint) return false;
    const before = new Map((this.scan?.cells ?? []).map((c) => [c.id, JSON.stringify(c)]));
    const delta: CellsDelta = { root: this.root, added: [], changed: [], removed: [] };
    for (const cell of scan.cells) {
      const was = before.get(cell.id);
      if (was === undefined) delta.added.push(cell);
      else if (was !== JSON.stringify(cell)) delta.changed.push(cell);
      before.delete(cell.id);
    }
    delta.removed = [...before.keys()];
    this.scan = scan;
    this.fingerprint = fingerprint;
    if (delta.added.length || delta.changed.length || delta.removed.length) this.onDelta(delta);
    return true;
  }

  async refresh(): Promise<void> {
    await this.rescan();
  }

  async close(): Promise<void> {}
}
