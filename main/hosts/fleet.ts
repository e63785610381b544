import type { GpuStatus } from '../../shared/machine';
import type { FleetHost, HostStatus } from '../../shared/contract';
import type { RunInfo } from '../../shared/launch';
import { isLive, type CellSummary, type RootStatus } from '../../shared/model';
import { parseAddress, LOCAL } from '../../shared/address';

/** The GPU trend: the last ten minutes of samples, thinned to at most TREND_POINTS. */
const TREND_MS = 600_000;
const TREND_POINTS = 60;

function gpuOf(status: GpuStatus): Pick<FleetHost, 'gpus' | 'gpuTrend'> {
  const share = (gpus: GpuStatus['history'][number]['gpus']) => {
    const total = gpus.reduce((sum, g) => sum + (g.totalMib ?? 0), 0);
    return total ? gpus.reduce((sum, g) => sum + (g.usedMib ?? 0), 0) / total : 0;
  };
  const latest = status.history.at(-1);
  const recent = latest ? status.history.filter((s) => s.t >= latest.t - TREND_MS) : [];
  const step = Math.max(1, Math.ceil(recent.length / TREND_POINTS));
  const gpus = latest?.gpus ?? [];
  return {
    gpus: gpus.length ? { count: gpus.length, usedMib: gpus.reduce((s, g) => s + (g.usedMib ?? 0), 0), totalMib: gpus.reduce((s, g) => s + (g.totalMib ?? 0), 0) } : null,
    gpuTrend: recent.filter((_, i) => (recent.length - 1 - i) % step === 0).map((s) => share(s.gpus)),
  };
}

/** One row a host: this machine first, then each SSH host in the order they were added. */
export function fleetOf(hosts: HostStatus[], cells: CellSummary[], roots: RootStatus[], runs: RunInfo[], gpu: Map<string, GpuStatus>): FleetHost[] {
  const aliases = [LOCAL, ...hosts.map((h) => h.alias)];
  return aliases.map((alias) => {
    const mine = cells.filter((c) => c.host === alias);
    const running = mine.filter((c) => isLive(c.state));
    const scored = running.reduce((sum, c) => sum + c.episodes.scored, 0);
    const connection = hosts.find((h) => h.alias === alias) ?? null;
    const rootsHere = roots.filter((r) => parseAddress(r.path).host === alias);
    return {
      alias,
      connection,
      ...gpuOf(gpu.get(alias) ?? { available: false, problems: [], history: [] }),
      cells: mine.length,
      runningCells: running.length,
      launchedRuns: runs.filter((r) => r.host === alias && (r.state === 'running' || r.state === 'pending')).length,
      launchedTotal: runs.filter((r) => r.host === alias).length,
      successRate: scored ? running.reduce((sum, c) => sum + c.episodes.successes, 0) / scored : null,
      lastChangeAt: mine.reduce<number | null>((newest, c) => (c.changedAt !== null && (newest === null || c.changedAt > newest) ? c.changedAt : newest), null),
      problems: [...(connection?.problem ? [connection.problem] : []), ...rootsHere.flatMap((r) => r.problems)],
    };
  });
}
