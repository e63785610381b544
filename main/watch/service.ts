// The open cells and streams, shared by every window and browser tab. Who holds what is counted here
// only: a session opens on its first holder, a stream is followed from its first holder, and both end
// when their last holder closes them or goes away.
import type { CellDelta, CellDetail } from '../../shared/cell-detail';
import type { StreamOpened } from '../../shared/contract';
import type { StreamResume } from '../../shared/cell-detail';
import type { CellSummary } from '../../shared/model';
import type { ContextOf } from '../place/context';
import { CellSession } from './session';
import type { OpenCellReader } from './open-reader';
import { NotFoundError } from '../../shared/errors';

/** One window or tab. */
export type ClientId = number;

interface Open {
  session: CellSession;
  ready: Promise<CellDetail>;
  /** How many times each client opened the cell. */
  holders: Map<ClientId, number>;
  /** Per stream, how many times each client opened it. */
  streams: Map<string, Map<ClientId, number>>;
}

const total = (holders: Map<ClientId, number>) => [...holders.values()].reduce((a, b) => a + b, 0);
const bump = (holders: Map<ClientId, number>, client: ClientId, by: number) => {
  const n = (holders.get(client) ?? 0) + by;
  if (n > 0) holders.set(client, n);
  else holders.delete(client);
};

export class WatchService {
  private readonly open = new Map<string, Open>();
  private nextClient: ClientId = 1;

  /** `present`: a row as it goes out (its state as its launched run's process says), as the list shows it. */
  constructor(
    private readonly cell: (id: string) => CellSummary,
    private readonly contextOf: ContextOf,
    private readonly emit: (delta: CellDelta) => void,
    private readonly present: (row: CellSummary) => CellSummary,
    /** Where cells are read, off the thread that serves the window. */
    private readonly reader: OpenCellReader,
  ) {}

  /** Open cells in these local folders are read again: what their runs' processes say changed. */
  restate(cellIds: string[]): void {
    const ids = new Set(cellIds);
    for (const entry of this.open.values()) if (ids.has(entry.session.summary.id)) entry.session.reread();
  }

  newClient(): ClientId {
    return this.nextClient++;
  }

  /** Whether this client has the cell open: its deltas are for it. */
  holds(client: ClientId, id: string): boolean {
    return this.open.get(id)?.holders.has(client) ?? false;
  }

  async openCell(client: ClientId, id: string): Promise<CellDetail> {
    const existing = this.open.get(id);
    if (existing) {
      bump(existing.holders, client, 1);
      await existing.ready;
      return existing.session.current();
    }
    const summary = this.cell(id);
    const session = new CellSession(summary, this.contextOf(summary), this.emit, this.present, this.reader);
    const entry: Open = { session, ready: session.open(), holders: new Map([[client, 1]]), streams: new Map() };
    this.open.set(id, entry);
    try {
      return await entry.ready;
    } catch (error) {
      this.open.delete(id);
      await session.close();
      throw error;
    }
  }

  async closeCell(client: ClientId, id: string): Promise<void> {
    const entry = this.open.get(id);
    if (!entry?.holders.has(client)) return;
    bump(entry.holders, client, -1);
    // A client's streams of a cell it no longer holds go with it.
    if (!entry.holders.has(client)) for (const stream of [...entry.streams.keys()]) this.releaseStream(entry, client, stream, Infinity);
    if (total(entry.holders) > 0) return;
    this.open.delete(id);
    await entry.session.close();
  }

  async openStream(client: ClientId, id: string, stream: string, resume?: StreamResume): Promise<StreamOpened> {
    const entry = this.open.get(id);
    if (!entry?.holders.has(client)) throw new NotFoundError(`open ${id} before its streams`);
    await entry.ready;
    const opened = await entry.session.openStream(stream, resume);
    const holders = entry.streams.get(stream) ?? new Map<ClientId, number>();
    entry.streams.set(stream, holders);
    bump(holders, client, 1);
    return opened;
  }

  async closeStream(client: ClientId, id: string, stream: string): Promise<void> {
    const entry = this.open.get(id);
    if (entry) this.releaseStream(entry, client, stream, 1);
  }

  private releaseStream(entry: Open, client: ClientId, stream: string, times: number): void {
    const holders = entry.streams.get(stream);
    if (!holders?.has(client)) return;
    bump(holders, client, -Math.min(times, holders.get(client) as number));
    if (total(holders) > 0) return;
    entry.streams.delete(stream);
    entry.session.closeStream(stream);
  }

  /** Releases everything a client held: its window closed, or its socket went. */
  async release(client: ClientId): Promise<void> {
    for (const [id, entry] of [...this.open]) {
      const held = entry.holders.get(client);
      if (held) for (let i = 0; i < held; i++) await this.closeCell(client, id);
    }
  }

  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((e) => e.session.close()));
  }
}
