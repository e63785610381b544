import type { FleetHost } from '../../../shared/contract';
import { CallFailed } from '../CallFailed';
import { useApp, useFeed } from '../context';
import { ago, counted, percent } from '../format';
import { HOST_DOT } from '../shell/HostRow';
import { useNow } from '../useNow';
import { Sparkline } from '../Sparkline';
import { usePlainColumns } from '../plainColumns';
import { feedPresence, hostPresence } from '../../../shared/presence';

const gib = (mib: number) => (mib / 1024).toFixed(0);

function connectionText(host: FleetHost): string {
  const c = host.connection;
  if (!c) return 'this machine';
  const parts: string[] = [c.state];
  const live = hostPresence(c.state) === 'live';
  if (live && c.latencyMs !== null) parts.push(`${c.latencyMs} ms`);
  if (live && c.via?.startsWith('OpenSSH')) parts.push('via OpenSSH');
  // Without python3 each stream costs the host a login shell of its own.
  if (live && c.commands === 'sh') parts.push('no python3');
  if (c.feed?.mode) parts.push(feedPresence(c.feed.state) === 'live' ? `${c.feed.mode} feed` : `${c.feed.mode} feed ${c.feed.state}`);
  return parts.join(' · ');
}

function connectionTitle(host: FleetHost): string | undefined {
  const c = host.connection;
  if (!c?.via) return undefined;
  const commands = { python3: 'commands and streams through one python3 process', sh: 'no python3: short commands through sh helpers, each stream a login shell of its own' };
  return [`connected by ${c.via}`, c.commands && commands[c.commands]].filter(Boolean).join('; ');
}

/** Every host in one table: connection, GPUs, running cells and runs, success, last change, problems; a click lists its cells. */
export function FleetView() {
  const selectHost = useApp((s) => s.selectHost);
  const now = useNow(5000);
  const { value: fleet, error } = useFeed((data) => data.fleet);
  const { shown: columns, menu, header, cells } = usePlainColumns<FleetHost>('fleet', [
    {
      key: 'host',
      title: 'Host',
      always: true,
      render: (host) => (
        <>
          <span className={`dot ${host.connection ? HOST_DOT[host.connection.state] : 'state-ok'}`} aria-hidden />{' '}
          <button className="link" onClick={() => selectHost(host.alias)} title={`List the cells of ${host.alias}`}>
            {host.alias}
          </button>
        </>
      ),
    },
    { key: 'connection', title: 'Connection', render: connectionText, td: (host) => ({ className: 'muted', role: 'status', title: connectionTitle(host) }) },
    { key: 'gpu', title: 'GPU memory', numeric: true, render: (host) => (host.gpus ? `${gib(host.gpus.usedMib)} / ${gib(host.gpus.totalMib)} GiB · ${counted(host.gpus.count, 'GPU')}` : '–') },
    { key: 'trend', title: 'Last 10 min', render: (host) => <Sparkline points={host.gpuTrend} label={`GPU memory of ${host.alias} over time`} />, td: () => ({ className: 'tone-running' }) },
    { key: 'running', title: 'Running', numeric: true, render: (host) => `${host.runningCells} / ${host.cells}` },
    { key: 'runs', title: 'Runs', numeric: true, hint: 'launched runs running or queued, of all launched there', render: (host) => (host.launchedTotal === 0 ? '–' : `${host.launchedRuns} of ${host.launchedTotal}`) },
    { key: 'success', title: 'Success', numeric: true, render: (host) => percent(host.successRate) },
    { key: 'changed', title: 'Last change', render: (host) => ago(host.lastChangeAt, now) },
    {
      key: 'problems',
      title: 'Problems',
      render: (host) => (host.problems.length ? `${host.problems.length}: ${host.problems[0]?.message}` : 'none'),
      td: (host) => ({ className: host.problems.length ? 'tone-fail problems-cell' : 'muted', title: host.problems.map((p) => `${p.file}: ${p.message}`).join('\n') }),
    },
  ]);
  if (error && !fleet) return <CallFailed what="The fleet" error={error} />;
  if (!fleet) return null;
  return (
    <section className="fleet-view" aria-label="Fleet">
      <div className="table-bar">{menu}</div>
      <table className="plain-table" aria-label="Hosts">
        <thead>
          <tr>{columns.map(header)}</tr>
        </thead>
        <tbody>
          {fleet.map((host) => (
            <tr key={host.alias} aria-label={host.alias}>
              {cells(host)}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
