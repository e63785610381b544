// Rows picked out of a file's blocks (a collection's rollouts, each unit's once), each by its block and
// place, with the agent it is counted as: what the count, the unit lists and the tables read.
import type { NemoRow, RowBlock, RowUsage } from './row-block';

/** A row's entry in the list: its block (an index of the list's blocks), its place there, its agent's code. */
const BLOCK = 0;
const PLACE = 1;
const AGENT = 2;
const ENTRY = 3;

export class RowList {
  private readonly blocks: RowBlock[] = [];
  /**
   * Each row's entry, in a typed array: a count pushes one for each rollout of a gigabyte, and three
   * arrays of them cost it a quarter more, collected as they grew.
   */
  private entries = new Int32Array(1024 * ENTRY);
  private count = 0;
  /** The agents rows are counted as (their own, or the one their materialized input names), by code. */
  private readonly agents: (string | null)[] = [];
  private readonly agentCodes = new Map<string | null, number>();

  get length(): number {
    return this.count;
  }

  push(block: RowBlock, place: number, agent: string | null): void {
    if (this.blocks[this.blocks.length - 1] !== block) this.blocks.push(block);
    let code = this.agentCodes.get(agent);
    if (code === undefined) this.agentCodes.set(agent, (code = this.agents.push(agent) - 1));
    if ((this.count + 1) * ENTRY > this.entries.length) {
      const more = new Int32Array(this.entries.length * 2);
      more.set(this.entries);
      this.entries = more;
    }
    const at = this.count++ * ENTRY;
    this.entries[at + BLOCK] = this.blocks.length - 1;
    this.entries[at + PLACE] = place;
    this.entries[at + AGENT] = code;
  }

  private block(k: number): RowBlock {
    return this.blocks[this.entries[k * ENTRY + BLOCK] as number] as RowBlock;
  }

  private place(k: number): number {
    return this.entries[k * ENTRY + PLACE] as number;
  }

  /** The place of the rollout read at `line`, -1 for none: places are in file order, so their lines rise. */
  placeOfLine(line: number): number {
    let [low, high] = [0, this.count - 1];
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = this.block(mid).line(this.place(mid));
      if (at === line) return mid;
      if (at < line) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  agent(k: number): string | null {
    return this.agents[this.entries[k * ENTRY + AGENT] as number] as string | null;
  }

  task(k: number): number {
    return this.block(k).task(this.place(k));
  }

  repeat(k: number): number | null {
    return this.block(k).repeat(this.place(k));
  }

  failureClass(k: number): string | null {
    return this.block(k).failureClass(this.place(k));
  }

  reward(k: number): unknown {
    return this.block(k).reward(this.place(k));
  }

  scoredReward(k: number): number | null {
    return this.block(k).scoredReward(this.place(k));
  }

  /** The k-th row's input, cached, output or reasoning tokens (`which`, 0 to 3); null where it gives none. */
  tokenCount(k: number, which: number): number | null {
    return this.block(k).tokenCount(this.place(k), which);
  }

  usage(k: number): RowUsage | null {
    return this.block(k).usage(this.place(k));
  }

  /** One of the k-th row's environment fields, parsed now (RowBlock.field). */
  field(k: number, name: string): unknown {
    return this.block(k).field(this.place(k), name);
  }

  offset(k: number): number {
    return this.block(k).offset(this.place(k));
  }

  /**
   * The rewards of each of `tasks`' rollouts, in file order, as their rows give them: made when a table shows
   * them, not kept a task while rows are counted (100,000 lists for 100,000 tasks).
   */
  rewardsOf(tasks: ReadonlySet<number>): Map<number, unknown[]> {
    const found = new Map<number, unknown[]>();
    for (let k = 0; k < this.length; k++) {
      const task = this.task(k);
      if (!tasks.has(task)) continue;
      const rewards = found.get(task);
      if (rewards) rewards.push(this.reward(k));
      else found.set(task, [this.reward(k)]);
    }
    return found;
  }

  /** The k-th row whole, its fields parsed now: for the few a table or a transcript shows. */
  row(k: number): NemoRow {
    return { ...this.block(k).row(this.place(k)), agent: this.agent(k) };
  }
}
