// What a read worker does for the cells open in the window (a cell's view, a unit's transcript, a paired
// test), here or on an SSH host, and for the rows of remote roots: a host's files are asked of the thread
// that holds its connection (host-files.ts), and everything else is done here, off the thread that serves
// the window.
import { JsonReader, syncLocalFs, type CellFs, type ReadContext } from '../../runners';
import { JsonlCache, KEPT_LOGS } from '../../runners/common/jsonl-cache';
import type { LineSplitter } from '../../runners/common/split-lines';
import { LogCache } from '../../runners/common/logs';
import { readCell, summaryOf } from '../../runners/read';
import { episodeTranscript } from '../../runners/common/episode-transcript';
import { capTranscript } from '../../runners/common/transcript-cap';
import { ADAPTERS } from '../../runners';
import { listedForView } from '../../shared/mcnemar';
import { isLocal } from '../../shared/address';
import { compareSides, readSide } from '../compare/paired';
import { collectGarbage } from './garbage';
import { HostFiles } from './host-files';
import { rootSnapshot, type RootSnapshot } from '../place/snapshot';
import { LookingFs } from './looked';
import type { FsAnswer, PairSide, WorkerJob, WorkerReply } from './worker-jobs';

type OpenJob = Extract<WorkerJob, { type: 'detail' | 'transcript' | 'pair' }>;
type SummaryJob = Extract<WorkerJob, { type: 'summary' }>;
type Kept = { fs: LookingFs; json: JsonReader; jsonl: JsonlCache; logs: LogCache };

/** The open cells whose reads' memory is kept (the last good JSON, logs read on from where they were): the newest this many. */
const OPEN_KEPT = 16;

export class OpenJobs {
  private readonly hosts: HostFiles;
  /** Each open cell, by host and path, with what its reads keep between them. */
  private readonly cells = new Map<string, Kept>();
  /** Each host's JSONL logs as its cells' rows last read them: read on from there. */
  private readonly hostLogs = new Map<string, JsonlCache>();
  /** Each remote root's latest snapshot, by host and the root's path, with its scan's stamp. */
  private readonly snapshots = new Map<string, { stamp: number; fs: RootSnapshot }>();

  /** `split`: the threads a long read of a local cell's log is split among. */
  constructor(
    private readonly reply: (message: WorkerReply) => void,
    private readonly split?: LineSplitter,
  ) {
    this.hosts = new HostFiles(reply);
  }

  private filesOf(host: string): CellFs {
    return isLocal(host) ? syncLocalFs() : this.hosts.of(host);
  }

  private opened(host: string, dir: string): Kept {
    const key = `${host}:${dir}`;
    let cell = this.cells.get(key);
    if (cell) this.cells.delete(key);
    else {
      const files = this.filesOf(host);
      const fs = new LookingFs(files);
      cell = { fs, json: new JsonReader(fs), jsonl: new JsonlCache(KEPT_LOGS, isLocal(host) ? this.split : undefined), logs: new LogCache(files) };
    }
    this.cells.set(key, cell);
    if (this.cells.size > OPEN_KEPT) this.cells.delete(this.cells.keys().next().value as string);
    return cell;
  }

  answered(answer: FsAnswer): void {
    this.hosts.answered(answer);
  }

  /** Keeps (or, with no output, forgets) a remote root's snapshot for its scan's summaries. */
  snapshot(job: Extract<WorkerJob, { type: 'snapshot' }>): void {
    const key = `${job.host}\0${job.root}`;
    if (job.output === null) this.snapshots.delete(key);
    else this.snapshots.set(key, { stamp: job.stamp, fs: rootSnapshot(job.output, job.root, job.depth, this.hosts.of(job.host)) });
  }

  /**
   * A remote cell's row for its root's index, from its scan's snapshot where this worker holds it; its file
   * calls carry its own id, as several run at once.
   */
  async summary(job: SummaryJob): Promise<void> {
    const host = this.hosts.of(job.host, job.id);
    const kept = job.snapshot === null ? undefined : [...this.snapshots.values()].find((s) => s.stamp === job.snapshot);
    const fs = new LookingFs(kept ? kept.fs.over(host) : host);
    const looked = fs.begin();
    let jsonl = this.hostLogs.get(job.host);
    if (!jsonl) this.hostLogs.set(job.host, (jsonl = new JsonlCache()));
    const ctx: ReadContext = { fs, json: new JsonReader(fs, { keepLastGood: false }), jsonl, now: Date.now(), host: job.host, scorers: job.scorers };
    const read = await readCell(job.dir, job.format, ctx);
    this.reply({ type: 'summarized', id: job.id, row: summaryOf(read, job.root), gone: read.gone === true, looked: { files: [...looked.files], dirs: [...looked.dirs] } });
  }

  async run(job: OpenJob): Promise<void> {
    this.hosts.job = job.id;
    const context = (host: string, kept: Pick<Kept, 'fs' | 'json' | 'jsonl'>): ReadContext => ({ fs: kept.fs, json: kept.json, jsonl: kept.jsonl, now: Date.now(), host, scorers: job.scorers });
    if (job.type === 'detail') {
      const kept = this.opened(job.host, job.dir);
      const looked = kept.fs.begin();
      const read = await readCell(job.dir, job.format, context(job.host, kept), { detail: true, logs: kept.logs, changed: job.changed ? new Set(job.changed) : undefined });
      this.reply({ type: 'detailed', id: job.id, read, looked: { files: [...looked.files], dirs: [...looked.dirs] } });
    } else if (job.type === 'transcript') {
      const transcripts = ADAPTERS[job.format].capabilities.transcripts;
      const ctx = context(job.host, this.opened(job.host, job.dir));
      // A format that logs each episode's events gives that log as the episode's transcript.
      const transcript = transcripts ? await transcripts.read(job.dir, job.unit, ctx) : ADAPTERS[job.format].capabilities.episodeStreams ? await episodeTranscript(ADAPTERS[job.format], job.dir, job.unit, ctx) : null;
      this.reply({ type: 'transcribed', id: job.id, transcript: transcript && capTranscript(transcript) });
    } else {
      // What reading a side parsed (500,000 seeds' summary, kept by its JsonReader) is given back before the next side is read.
      const side = ({ host, dir, format, version }: PairSide) => {
        const fs = this.filesOf(host);
        return readSide(dir, format, version, { fs, json: new JsonReader(fs), now: Date.now(), host, scorers: job.scorers });
      };
      const a = await side(job.a);
      collectGarbage();
      const b = await side(job.b);
      collectGarbage();
      this.reply({ type: 'paired', id: job.id, test: listedForView(compareSides(a, b)) });
    }
  }
}
