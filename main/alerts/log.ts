// The alerts raised, kept in the data folder: the last 1,000, and the keys of more, so that a restart never
// raises again what was already said.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ALERT_KINDS, CELL_TABS, DEFAULT_ALERT_PREFS, type Alert, type AlertKind, type AlertPrefs, type AlertsState } from '../../shared/alerts';
import { problem, type Problem } from '../../shared/model';
import { StateFile } from '../state-file';

const KEPT = 1000;
const KEYS_KEPT = 20_000;

const kind = z.enum(Object.keys(ALERT_KINDS) as [AlertKind, ...AlertKind[]]);
export const prefsSchema = z.strictObject({
  off: z.array(kind).max(50),
  cellOff: z.record(z.string().min(1).max(4200), z.array(kind).max(50)),
  stallSeconds: z.number().min(1).max(7 * 24 * 3600),
  pinned: z.array(z.strictObject({ a: z.string().min(1).max(4200), b: z.string().min(1).max(4200) })).max(100),
});
const alertSchema = z.object({ key: z.string(), kind, at: z.number(), cell: z.string().nullable(), subject: z.string(), message: z.string(), tab: z.enum(CELL_TABS).optional() });
const fileSchema = z.object({ alerts: z.array(alertSchema), keys: z.array(z.string()), readUntil: z.number(), prefs: prefsSchema });

export class AlertLog {
  private alerts: Alert[] = [];
  private readonly keys = new Set<string>();
  private readUntil = 0;
  private prefs: AlertPrefs = DEFAULT_ALERT_PREFS;
  private problem: Problem | null = null;

  /** `readOnly`: reads the user's preferences and past alerts but never writes (`cellwatch alerts`). */
  private constructor(
    private readonly file: StateFile,
    private readonly readOnly: boolean,
  ) {}

  static async open(path: string, readOnly = false): Promise<AlertLog> {
    const log = new AlertLog(new StateFile(path), readOnly);
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : error));
    if (text instanceof Error) log.problem = problem(path, `cannot read past alerts: ${text.message}`);
    else if (text !== null) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        json = error;
      }
      const parsed = fileSchema.safeParse(json);
      if (!parsed.success) log.problem = problem(path, 'past alerts ignored: not an alerts file Cellwatch wrote', { tip: 'delete it; the next alert writes a new one' });
      else {
        log.alerts = parsed.data.alerts;
        parsed.data.keys.forEach((key) => log.keys.add(key));
        log.readUntil = parsed.data.readUntil;
        log.prefs = parsed.data.prefs;
      }
    }
    return log;
  }

  state(): AlertsState {
    return { alerts: this.alerts, readUntil: this.readUntil, prefs: this.prefs };
  }

  problems(): Problem[] {
    return this.problem ? [this.problem] : [];
  }

  /** Whether an alert would be shown: its kind is on, everywhere and for its cell, and it was never raised. */
  wanted(raised: { key: string; kind: AlertKind; cell: string | null }): boolean {
    const offHere = raised.cell !== null && (this.prefs.cellOff[raised.cell]?.includes(raised.kind) ?? false);
    return !this.keys.has(raised.key) && !this.prefs.off.includes(raised.kind) && !offHere;
  }

  /** Keeps a new alert; false when it is not wanted. */
  async add(alert: Alert): Promise<boolean> {
    if (!this.wanted(alert)) return false;
    this.keys.add(alert.key);
    this.alerts = [...this.alerts, alert].slice(-KEPT);
    await this.save();
    return true;
  }

  async markRead(until: number): Promise<AlertsState> {
    // Up to the newest alert there is: a time further on would mark alerts not yet raised as read.
    this.readUntil = Math.max(this.readUntil, Math.min(until, this.alerts.at(-1)?.at ?? 0));
    await this.save();
    return this.state();
  }

  async setPrefs(prefs: AlertPrefs): Promise<AlertsState> {
    this.prefs = prefs;
    await this.save();
    return this.state();
  }

  private async save(): Promise<void> {
    if (this.readOnly) return;
    const keys = [...this.keys].slice(-KEYS_KEPT);
    if (keys.length < this.keys.size) {
      this.keys.clear();
      keys.forEach((key) => this.keys.add(key));
    }
    // A file that cannot be written loses nothing shown now: it is said, and the next save tries again.
    await this.file.write(JSON.stringify({ alerts: this.alerts, keys, readUntil: this.readUntil, prefs: this.prefs })).then(
      () => (this.problem = null),
      (error: Error) => (this.problem = problem(this.file.path, `cannot keep alerts: ${error.message}`)),
    );
  }
}
