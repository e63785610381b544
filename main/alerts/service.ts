// Alerts from what the core already sees: every cell's changes (opened or not), launched runs ending,
// hosts going down, GPU samples, pinned paired tests. Each is raised once, kept, and sent to every window.
import type { Alert, AlertPrefs, AlertsState } from '../../shared/alerts';
import type { Backend, HostStatus } from '../../shared/contract';
import type { GpuSample } from '../../shared/machine';
import type { RunInfo } from '../../shared/launch';
import type { PairedTest } from '../../shared/mcnemar';
import type { CellsDelta, CellSummary } from '../../shared/model';
import type { EventHub } from '../events';
import { MIN_FREE_MIB } from '../launch/gpu-pick';
import { splitAddress } from '../compare/paired';
import type { AlertLog } from './log';
import { cellAlerts, hostDownAlert, pairedAlert, type Raised } from './rules';
import { LiveCells } from './live-cells';
import { hostPresence } from '../../shared/presence';
import { LOCAL, isLocal } from '../../shared/address';

export interface AlertSources {
  events: EventHub;
  /** The cells listed now: what they are is where changes are measured from. */
  cells(): CellSummary[];
  runs(): Promise<RunInfo[]>;
  onRunEnded(listener: (run: RunInfo) => void): void;
  pairedTest(a: string, b: string): Promise<PairedTest>;
}

export interface AlertTiming {
  /** How often stalls and unreachable hosts are looked for (default 1 s). */
  checkMs?: number;
  /** A host down this long is an alert (default 60 s). */
  hostDownMs?: number;
}

type AlertCalls = Pick<Backend, 'listAlerts' | 'markAlertsRead' | 'setAlertPrefs'>;

export class AlertService implements AlertCalls {
  private readonly rows = new Map<string, CellSummary>();
  private readonly live = new LiveCells();
  private readonly hostDown = new Map<string, { since: number; why: string | null }>();
  /** Launched runs whose GPU is under the guard now, and since when. */
  private readonly lowGpu = new Map<string, { since: number; host: string }>();
  /** Each pinned pair's last significance; the first computation is where changes count from. */
  private readonly pairs = new Map<string, boolean>();
  private readonly pairTimers = new Map<string, NodeJS.Timeout>();
  /** Each pinned pair's check in flight, which the next waits for. */
  private readonly pairChecks = new Map<string, Promise<void>>();
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly log: AlertLog,
    private readonly sources: AlertSources,
    private readonly timing: AlertTiming = {},
  ) {
    sources.cells().forEach((cell) => this.see(cell));
    this.unsubscribe = [
      sources.events.on('cellsChanged', (delta) => this.cellsChanged(delta)),
      sources.events.on('hostsChanged', (hosts) => this.hostsChanged(hosts)),
      sources.events.on('gpuSample', (sample) => void this.gpuSample(sample)),
    ];
    sources.onRunEnded((run) => this.runEnded(run));
    this.timer = setInterval(() => this.check(Date.now()), timing.checkMs ?? 1000);
    this.timer.unref();
    this.log.state().prefs.pinned.forEach((pair) => this.schedulePair(pair, 0));
  }

  async listAlerts(): Promise<AlertsState> {
    return this.log.state();
  }

  markAlertsRead(until: number): Promise<AlertsState> {
    return this.log.markRead(until);
  }

  async setAlertPrefs(prefs: AlertPrefs): Promise<AlertsState> {
    const state = await this.log.setPrefs(prefs);
    this.live.lookAgain();
    prefs.pinned.filter((pair) => !this.pairs.has(pairKey(pair))).forEach((pair) => this.schedulePair(pair, 0));
    return state;
  }

  problems() {
    return this.log.problems();
  }

  private raise(raised: Raised): void {
    const alert: Alert = { ...raised, at: Date.now() };
    if (!this.log.wanted(alert)) return;
    void this.log.add(alert).then((added) => added && this.sources.events.emit('alertRaised', alert));
  }

  /** The cell of a paired side: a cell id, `<id>@vNNN` or `<id>@AGENT`. */
  private cellOf(side: string): string {
    return splitAddress(side, (id) => this.rows.has(id)).cell;
  }

  /** A row seen: the first time it is where changes count from; a live one may stall from now on. */
  private see(cell: CellSummary): void {
    this.rows.set(cell.id, cell);
    this.live.seen(cell);
  }

  private cellsChanged(delta: CellsDelta): void {
    for (const cell of [...delta.added, ...delta.changed]) {
      const before = this.rows.get(cell.id);
      if (before) cellAlerts(before, cell).forEach((raised) => this.raise(raised));
      this.see(cell);
    }
    for (const id of delta.removed) {
      this.rows.delete(id);
      this.live.removed(id);
    }
    const changed = new Set([...delta.added, ...delta.changed].map((c) => c.id));
    this.log
      .state()
      .prefs.pinned.filter((pair) => changed.has(this.cellOf(pair.a)) || changed.has(this.cellOf(pair.b)))
      .forEach((pair) => this.schedulePair(pair, 1000));
  }

  private check(now: number): void {
    this.live.check(now, this.log.state().prefs.stallSeconds * 1000).forEach((raised) => this.raise(raised));
    for (const [alias, { since, why }] of this.hostDown) {
      const down = hostDownAlert(alias, since, now, this.timing.hostDownMs ?? 60_000, why);
      if (down) this.raise(down);
    }
  }

  private hostsChanged(hosts: HostStatus[]): void {
    for (const host of hosts) {
      if (hostPresence(host.state) === 'live') this.hostDown.delete(host.alias);
      else if (host.state !== 'connecting' || this.hostDown.has(host.alias)) {
        const was = this.hostDown.get(host.alias);
        this.hostDown.set(host.alias, { since: was?.since ?? Date.now(), why: host.problem?.message ?? was?.why ?? null });
      }
    }
  }

  private runEnded(run: RunInfo): void {
    if (run.state !== 'crashed') return;
    const last = run.stderrTail.at(-1);
    this.raise({
      key: `crashed:${run.id}`,
      kind: 'crashed',
      tab: 'logs',
      cell: run.cellId,
      subject: run.name,
      message: `${run.job ? `Slurm job ${run.job.id} ${run.job.state}, ` : ''}exited with code ${run.exitCode ?? '?'}${last ? `: ${last}` : ' (nothing on stderr)'}`,
    });
  }

  private async gpuSample(sample: GpuSample): Promise<void> {
    // The runs are looked up only when some GPU is under the guard: most samples cost nothing here.
    const low = sample.gpus.some((g) => g.freeMib !== null && g.freeMib < MIN_FREE_MIB);
    // The runs on the sampled host: this machine's, or an SSH host's.
    const host = sample.host ?? LOCAL;
    if (!low) {
      for (const [id, entry] of this.lowGpu) if (entry.host === host) this.lowGpu.delete(id);
      return;
    }
    const running = (await this.sources.runs()).filter((run) => run.state === 'running' && run.gpu !== null && run.host === host);
    for (const run of running) {
      const free = sample.gpus.find((g) => g.index === run.gpu)?.freeMib;
      if (free === undefined || free === null || free >= MIN_FREE_MIB) {
        this.lowGpu.delete(run.id);
        continue;
      }
      const since = this.lowGpu.get(run.id)?.since ?? sample.t;
      this.lowGpu.set(run.id, { since, host });
      this.raise({
        key: `gpu_low:${run.id}:${since}`,
        kind: 'gpu_low',
        cell: run.cellId,
        subject: run.name,
        message: `GPU ${run.gpu}${isLocal(host) ? '' : ` on ${host}`} has ${free} MiB free, under the ${MIN_FREE_MIB} MiB guard`,
      });
    }
  }

  /** Recomputes a pinned pair a little after its cells change (a live run changes often). */
  private schedulePair(pair: { a: string; b: string }, delayMs: number): void {
    const key = pairKey(pair);
    if (this.pairTimers.has(key)) return;
    const timer = setTimeout(() => {
      this.pairTimers.delete(key);
      // One check of a pair at a time, in order: a later one finishing first would take the earlier's place.
      const check = (this.pairChecks.get(key) ?? Promise.resolve()).then(() => this.checkPair(pair));
      this.pairChecks.set(key, check);
      void check.finally(() => this.pairChecks.get(key) === check && this.pairChecks.delete(key));
    }, delayMs);
    timer.unref();
    this.pairTimers.set(key, timer);
  }

  private async checkPair(pair: { a: string; b: string }): Promise<void> {
    const key = pairKey(pair);
    if (!this.log.state().prefs.pinned.some((p) => pairKey(p) === key)) return;
    // A side that cannot be read now (a host down, a cell gone) is tried again at its next change.
    const test = await this.sources.pairedTest(pair.a, pair.b).catch(() => null);
    if (!test?.ok) return;
    const significant = test.table.p_value < 0.05;
    const before = this.pairs.get(key);
    this.pairs.set(key, significant);
    if (before !== undefined && before !== significant) this.raise(pairedAlert(pair, { a: test.a.name, b: test.b.name }, test.table, this.cellOf(pair.b)));
  }

  close(): void {
    clearInterval(this.timer);
    this.pairTimers.forEach((timer) => clearTimeout(timer));
    this.unsubscribe.forEach((off) => off());
  }
}

const pairKey = (pair: { a: string; b: string }) => `${pair.a}|${pair.b}`;
