import type { CellDelta, CellDetail, StreamEvent, StreamResume } from '../../shared/cell-detail';
import { isLive, mergeProblems, problem, problemKey, type CellSummary, type Problem } from '../../shared/model';
import { ADAPTERS, cellFolder } from '../../runners';
import { ChangedPaths, type Change } from '../changes';
import { PAUSE_PER_LOCAL_READ, PAUSE_PER_REMOTE_READ, QuietTimer, Rereads } from '../quiet';
import { kindFor, type Looked } from '../roots/looked';
import type { CellRead, DetailRead, EventLog } from '../../runners/types';
import type { OpenCellReader } from './open-reader';
import { summaryOf } from '../../runners/read';
import { vramSample } from '../../runners/common/vram';
import type { HostContext } from '../place/context';
import type { FollowStart } from '../tail/follower';
import { FollowSet } from '../tail/follow-set';
import type { TailChunk, TailRecord } from '../tail/lines';
import { diffDetail } from './diff';
import { streamEvent } from '../../runners/common/stream-event';
import { append } from '../../shared/arrays';
import { NotFoundError } from '../../shared/errors';
import { isLocal } from '../../shared/address';

/** How long file events are gathered before the cell is read again. */
const SETTLE_MS = 25;
/** Ages (running turns stale) need a reread even when nothing is written. */
const REFRESH_MS = 30_000;
/** While a host's feed is down, the cell is reread this often. */
const REMOTE_REFRESH_MS = 3000;
/** A stream opens on the last this-many bytes of its log, so a 1 GB trajectory shows its end at once. */
export const OPEN_TAIL_BYTES = 4 << 20;

const EMPTY_DETAIL: DetailRead = { episodes: [], versions: [], vram: [], startedAt: null, episodeBudget: null, frameSources: [], logStream: null, otherBudgets: [], tables: [], programs: [] };

/** A cell whose read failed (its worker stalled, or ran out of memory): its last row, with why as a problem. */
function unreadRead(summary: CellSummary, error: Error): CellRead {
  const cell = { ...summary, problems: mergeProblems(summary.problems, [problem(summary.path, `could not be read: ${error.message}`)]) };
  return { cell, labels: summary.labels, changedAt: summary.changedAt, units: [] };
}

/**
 * One open cell: watches its folder, rereads it when files change and emits only what changed; follows
 * the event logs that a viewer opened and emits their new events.
 */
export class CellSession {
  private detail!: CellDetail;
  private unwatch: (() => Promise<void>) | undefined;
  /** The logs it follows: the streams a viewer opened (by stream), its GPU samples. */
  private readonly follows: FollowSet;
  private readonly streams = new Map<string, EventLog>();
  private vramFile: string | undefined;
  private readonly seenProblems = new Set<string>();
  /** Rereads as files change, at the pace of what one costs. */
  private readonly rereads: Rereads;
  private timers: NodeJS.Timeout[] = [];
  /** What the last read looked at. */
  private looked: Looked | undefined;
  /** What the watch saw change since the last read began: its logs alone are checked again. */
  private readonly changedSince = new ChangedPaths(true);
  private readonly quiet = new QuietTimer(() => this.rereads.ask());
  /** Where the cell's files are: its folder, or the folder of a cell that is a file. */
  private readonly folder: string;

  constructor(
    readonly summary: CellSummary,
    private readonly context: HostContext,
    private readonly emit: (delta: CellDelta) => void,
    private readonly present: (row: CellSummary) => CellSummary,
    /** Where the cell is read, off this thread. */
    private readonly reader: OpenCellReader,
  ) {
    this.folder = cellFolder(summary.path, summary.format);
    this.follows = new FollowSet(context, this.folder);
    const pause = isLocal(context.host) ? PAUSE_PER_LOCAL_READ : PAUSE_PER_REMOTE_READ;
    this.rereads = new Rereads(() => this.refresh().catch((error: Error) => this.refreshFailed(error)), SETTLE_MS, pause);
  }

  /** The cell's read with its detail, in an open-cell worker (a host's files read over its connection), and what it looked at. */
  private readFiles(): Promise<{ read: CellRead; looked: Looked }> {
    const changed = this.changedSince.take();
    // A worker that stalls or runs out of memory fails this cell alone: a problem of the cell, read again
    // later. A host that dropped is tried again at the next tick.
    return this.reader.detail(this.context.host, this.summary.path, this.summary.format, changed).catch((error: Error) => {
      this.changedSince.anything();
      if (error.name === 'HostUnavailableError') throw error;
      return { read: unreadRead(this.summary, error), looked: this.looked ?? { files: new Set(), dirs: new Set() } };
    });
  }

  /** The cell and its detail, from one pass over its files; its event logs checked on from where they were. */
  private async read(): Promise<CellDetail> {
    const { read, looked } = await this.readFiles();
    this.looked = looked;
    const summary = this.present(summaryOf(read, this.summary.root));
    const detail = read.detail ?? EMPTY_DETAIL;
    // A unit's state follows its run's: a run that stopped (or went stale) has no running episode.
    if (isLive(summary.state)) return { summary, ...detail };
    return { summary, ...detail, episodes: detail.episodes.map((e) => (e.status === 'running' ? { ...e, status: summary.state } : e)) };
  }

  /** The detail as of the last reread, for a second viewer of an open cell. */
  current(): CellDetail {
    return this.detail;
  }

  async open(): Promise<CellDetail> {
    this.detail = await this.read();
    this.detail.summary.problems.forEach((p) => this.seenProblems.add(problemKey(p)));
    const vramFile = ADAPTERS[this.summary.format].capabilities.vram?.file;
    if (vramFile) await this.followVram(vramFile);

    this.unwatch = await this.context.watch(
      this.folder,
      (change) => this.changed(change),
      (error) => this.emit({ cellId: this.summary.id, problems: [problem(this.summary.path, `watching stopped: ${error.message}`, { tip: 'close the cell and open it again' })] }),
    );
    // What was written while the watch was being set up was seen by no one: the next read checks every log.
    this.changedSince.anything();
    // Open logs are polled too: a watcher can miss a change, and a host's feed can be down.
    this.follows.startPolling();
    // While a host's feed is down, the rest of the cell is read every few seconds.
    if (!isLocal(this.context.host)) this.timers.push(setInterval(() => this.context.live() || this.reread(), REMOTE_REFRESH_MS));
    // Also the backstop for a change the watch missed.
    this.timers.push(setInterval(() => this.reread(), REFRESH_MS));
    this.timers.forEach((t) => t.unref());
    return this.detail;
  }

  /** GPU memory samples as they are appended: the detail holds those written so far, so the first read only finds the end. */
  private async followVram(file: string): Promise<void> {
    let caughtUp = false;
    this.vramFile = file;
    await this.follows.follow(file, (chunk) => {
      if (!caughtUp) return;
      const samples = chunk.records.flatMap(({ value }) => vramSample(value) ?? []);
      if (samples.length) this.emit({ cellId: this.summary.id, vram: samples });
      if (chunk.problems.length) this.emit({ cellId: this.summary.id, problems: chunk.problems });
    });
    caughtUp = true;
  }

  private changed(change: Change): void {
    const file = this.follows.fileOf(change.path);
    if (file === null) {
      // The cell itself, or a folder above it (a host's feed that started again): anything may have changed.
      this.follows.pollAll();
      this.reread();
      return;
    }
    this.changedSince.add(change.path);
    if (this.follows.route(file) && file === this.vramFile) return;
    // A log being followed, or a frame written, need no reread: only what the last read looked at does;
    // over SSH a log it looked at that grows is read again once quiet, not once a line.
    const how = this.looked ? kindFor(this.looked, change) : 'changed';
    if (how === 'changed' || (how === 'appended' && isLocal(this.context.host))) this.rereads.ask();
    else if (how === 'appended') this.quiet.poke();
  }

  /** Reads the cell again now, every log checked: anything may have changed. */
  reread(): void {
    this.changedSince.anything();
    this.rereads.ask();
  }

  /** A reread that failed: a host reconnecting is tried again at the next tick; anything else is said, once. */
  private refreshFailed(error: Error): void {
    if (error.name === 'HostUnavailableError') return;
    const failed = problem(this.summary.path, `could not read the cell again: ${error.message}`);
    if (this.seenProblems.has(problemKey(failed))) return;
    this.seenProblems.add(problemKey(failed));
    this.emit({ cellId: this.summary.id, problems: [failed] });
  }

  private async refresh(): Promise<void> {
    const next = await this.read();
    const delta = diffDetail(this.summary.id, this.detail, next, this.seenProblems);
    this.detail = next;
    if (delta) this.emit(delta);
  }

  /**
   * Starts following a stream (an episode's trajectory, or the cell's log), or joins it when another
   * viewer follows it already; returns the events it has now, read from the last OPEN_TAIL_BYTES of the
   * file. Later events come as deltas.
   */
  async openStream(stream: string, resume?: StreamResume): Promise<{ events: StreamEvent[]; problems: Problem[]; startedMidFile: boolean }> {
    const existing = this.streams.get(stream);
    const log = existing ?? (await ADAPTERS[this.summary.format].eventLogs(this.summary.path, this.context.read())).find((l) => l.stream === stream);
    if (!log) throw new NotFoundError(`${this.summary.name} has no event stream ${JSON.stringify(stream)}`);
    const initial: { events: StreamEvent[]; problems: Problem[] } = { events: [], problems: [] };
    const collect = (chunk: TailChunk) => {
      append(initial.events, chunk.records.map((r) => streamEvent(log, r)));
      append(initial.problems, chunk.problems);
    };
    const start: FollowStart = resume ? { from: 'offset', ...resume } : { from: 'end', bytes: OPEN_TAIL_BYTES };
    if (existing) {
      // The live follower already serves deltas; this viewer reads the file's end once.
      await this.follows.readOnce(log.file, collect, start);
    } else {
      let collecting = true;
      this.streams.set(stream, log);
      await this.follows.follow(log.file, (chunk) => (collecting ? collect(chunk) : this.deliver(log, chunk.records, chunk.problems)), start);
      collecting = false;
    }
    return { ...initial, startedMidFile: !resume && initial.events[0]?.line === null };
  }

  private deliver(log: EventLog, records: TailRecord[], problems: Problem[]): void {
    const delta: CellDelta = { cellId: this.summary.id };
    if (records.length) delta.events = records.map((r) => streamEvent(log, r));
    if (problems.length) {
      delta.problems = problems;
      problems.forEach((p) => this.seenProblems.add(problemKey(p)));
    }
    if (delta.events || delta.problems) this.emit(delta);
  }

  /** Stops following a stream: its last viewer left. */
  closeStream(stream: string): void {
    const log = this.streams.get(stream);
    if (log) this.follows.unfollow(log.file);
    this.streams.delete(stream);
  }

  async close(): Promise<void> {
    this.timers.forEach(clearInterval);
    this.quiet.cancel();
    this.follows.close();
    this.streams.clear();
    await this.unwatch?.();
    await this.rereads.close();
  }
}
