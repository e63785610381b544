import { useCallback } from 'react';
import type { FleetHost } from '../../../shared/contract';
import { CallFailed } from '../CallFailed';
import { useApp, useTransport } from '../context';
import { ago, percent } from '../format';
import { HOST_DOT } from '../shell/HostRow';
import { useNow } from '../useNow';
import { usePolled } from '../usePolled';
import { Sparkline } from '../Sparkline';

const gib = (mib: number) => (mib / 1024).toFixed(0);

function connectionText(host: FleetHost): string {
  const c = host.connection;
  if (!c) return 'this machine';
  const parts: string[] = [c.state];
  if (c.state === 'connected' && c.latencyMs !== null) parts.push(`${c.latencyMs} ms`);
  if (c.state === 'connected' && c.via?.startsWith('OpenSSH')) parts.push('via OpenSSH');
  if (c.feed?.mode) parts.push(c.feed.state === 'live' ? `${c.feed.mode} feed` : `${c.feed.mode} feed ${c.feed.state}`);
  return parts.join(' · ');
}

/** Every host in one table: connection, GPUs, running cells and runs, success, last change, problems; a click lists its cells. */
export function FleetView() {
  const transport = useTransport();
  const selectHost = useApp((s) => s.selectHost);
  const now = useNow(5000);
  const { value: fleet, error } = usePolled(useCallback(() => transport.call('listFleet'), [transport]));
  if (error && !fleet) return <CallFailed what="The fleet" error={error} />;
  if (!fleet) return null;
  return (
    <section className="fleet-view" aria-label="Fleet">
      <table className="plain-table" aria-label="Hosts">
        <thead>
          <tr>
            <th>Host</th>
            <th>Connection</th>
            <th className="num">GPU memory</th>
            <th>Last 10 min</th>
            <th className="num">Running</th>
            <th className="num" title="launched runs running or queued, of all launched there">Runs</th>
            <th className="num">Success</th>
            <th>Last change</th>
            <th>Problems</th>
          </tr>
        </thead>
        <tbody>
          {fleet.map((host) => (
            <tr key={host.alias} aria-label={host.alias}>
              <td>
                <span className={`dot ${host.connection ? HOST_DOT[host.connection.state] : 'state-ok'}`} aria-hidden />{' '}
                <button className="link" onClick={() => selectHost(host.alias)} title={`List the cells of ${host.alias}`}>
                  {host.alias}
                </button>
              </td>
              <td className="muted" role="status" title={host.connection?.via ? `connected by ${host.connection.via}` : undefined}>
                {connectionText(host)}
              </td>
              <td className="num">{host.gpus ? `${gib(host.gpus.usedMib)} / ${gib(host.gpus.totalMib)} GiB · ${host.gpus.count} GPU${host.gpus.count === 1 ? '' : 's'}` : '–'}</td>
              <td className="tone-running">
                <Sparkline points={host.gpuTrend} label={`GPU memory of ${host.alias} over time`} />
              </td>
              <td className="num">
                {host.runningCells} / {host.cells}
              </td>
              <td className="num">{host.launchedTotal === 0 ? '–' : `${host.launchedRuns} of ${host.launchedTotal}`}</td>
              <td className="num">{percent(host.successRate)}</td>
              <td>{ago(host.lastChangeAt, now)}</td>
              <td className={host.problems.length ? 'tone-fail problems-cell' : 'muted'} title={host.problems.map((p) => `${p.file}: ${p.message}`).join('\n')}>
                {host.problems.length ? `${host.problems.length}: ${host.problems[0]?.message}` : 'none'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
