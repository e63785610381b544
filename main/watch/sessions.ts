import type { CellDelta, CellDetail } from '../../shared/cell-detail';
import type { StreamOpened } from '../../shared/contract';
import type { CellSummary } from '../../shared/model';
import { CellSession, type CellAccess } from './session';

interface Open {
  session: CellSession;
  ready: Promise<CellDetail>;
  users: number;
}

/** The open cells, shared by every window and browser tab that opened them. */
export class Sessions {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly find: (id: string) => CellSummary | undefined,
    private readonly access: (cell: CellSummary) => CellAccess,
    private readonly emit: (delta: CellDelta) => void,
  ) {}

  async openCell(id: string): Promise<CellDetail> {
    const existing = this.open.get(id);
    if (existing) {
      existing.users++;
      await existing.ready;
      return existing.session.current();
    }
    const summary = this.find(id);
    if (!summary) throw new Error(`${id} is not a cell of a runs root`);
    const session = new CellSession(summary, this.access(summary), this.emit);
    const entry: Open = { session, ready: session.open(), users: 1 };
    this.open.set(id, entry);
    try {
      return await entry.ready;
    } catch (error) {
      this.open.delete(id);
      await session.close();
      throw error;
    }
  }

  async closeCell(id: string): Promise<void> {
    const entry = this.open.get(id);
    if (!entry || --entry.users > 0) return;
    this.open.delete(id);
    await entry.session.close();
  }

  private opened(id: string): CellSession {
    const entry = this.open.get(id);
    if (!entry) throw new Error(`open ${id} before its streams`);
    return entry.session;
  }

  async openStream(id: string, stream: string): Promise<StreamOpened> {
    await this.open.get(id)?.ready;
    return this.opened(id).openStream(stream);
  }

  closeStream(id: string, stream: string): void {
    this.open.get(id)?.session.closeStream(stream);
  }

  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((e) => e.session.close()));
  }
}
