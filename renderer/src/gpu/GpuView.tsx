import { useMemo, useState } from 'react';
import { whole } from '../format';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useApp, useFeed } from '../context';
import { useRuns } from '../launch/useRuns';
import { isLocal, LOCAL } from '../../../shared/address';
import { CallFailed } from '../CallFailed';
import { largest } from '../../../shared/arrays';
import { AXIS, GRID, LEGEND, SERIES, TOOLTIP } from '../chart-style';
import { gib } from './gib';

/** CPU, memory and the disks that hold the runs roots, refreshed every five seconds: now in words, and their last ten minutes as a chart with axes. */
function SystemLine() {
  const { value: system, error } = useFeed((data) => data.system);
  const series = useMemo(
    () => (system?.history ?? []).map((p) => ({ t: p.t, cpu: pct(p.cpu), memory: pct(p.memory), ...Object.fromEntries(Object.entries(p.disks).map(([mount, share]) => [`disk ${mount}`, pct(share)])) })),
    [system?.history],
  );
  if (error) return <CallFailed what="Machine" error={error} />;
  if (!system) return null;
  const lines = ['cpu', 'memory', ...system.disks.map((d) => `disk ${d.mount}`)];
  return (
    <>
      <p className="system-line" aria-label="Machine">
        <span>CPU {system.cpuLoadPct ?? '?'}%</span>
        {system.memory && (
          <span>
            memory {gib(system.memory.usedMib)} / {gib(system.memory.totalMib)} GiB
          </span>
        )}
        {system.disks.map((d) => (
          <span key={d.mount}>
            disk {d.mount} {d.usedGib} / {d.sizeGib} GiB
          </span>
        ))}
        {system.otherGpus.map((g) => (
          <span key={`${g.vendor} ${g.model}`}>
            {g.vendor} {g.model} (no nvidia-smi)
          </span>
        ))}
      </p>
      {series.length > 1 && (
        <figure className="chart" aria-label="Machine over time">
          <figcaption>CPU, memory and disks in use (%)</figcaption>
          <div className="chart-body">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={series} margin={{ top: 4, right: 8, bottom: 0, left: -10 }}>
                <CartesianGrid {...GRID} />
                <XAxis dataKey="t" type="number" domain={['dataMin', 'dataMax']} tick={AXIS} tickFormatter={(t: number) => new Date(t).toLocaleTimeString()} />
                <YAxis tick={AXIS} domain={[0, 100]} unit="%" />
                <Tooltip {...TOOLTIP} labelFormatter={(t) => new Date(Number(t)).toLocaleTimeString()} formatter={(v) => `${Number(v).toFixed(0)}%`} />
                <Legend wrapperStyle={LEGEND} />
                {lines.map((key, i) => (
                  <Line key={key} name={key} dataKey={key} stroke={SERIES[i % SERIES.length]} dot={false} isAnimationActive={false} connectNulls />
                ))}
              </LineChart>
            </ResponsiveContainer>
          </div>
        </figure>
      )}
    </>
  );
}

/** A share (0 to 1) as a percentage; null where unknown. */
const pct = (share: number | null | undefined) => (typeof share === 'number' ? share * 100 : null);

/** Each cell's VRAM peak: what its runner wrote, or what Cellwatch sampled for runs it launched. */
function VramPeaks() {
  const cells = useApp((s) => s.cells);
  const { runs, error } = useRuns();
  const rows = [
    ...cells.filter((c) => c.vramPeakMib !== null).map((c) => ({ name: c.name, mib: c.vramPeakMib as number, source: 'vram_peak_mib' })),
    ...(runs ?? []).filter((r) => r.vramPeakMib !== null).map((r) => ({ name: r.name, mib: r.vramPeakMib as number, source: 'sampled' })),
  ].sort((a, b) => b.mib - a.mib);
  if (rows.length === 0 && !error) return null;
  return (
    <>
      <h2 className="section-title">VRAM peak by cell</h2>
      {error && <CallFailed what="Launched runs" error={error} />}
      <table className="plain-table" aria-label="VRAM peaks">
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.source}:${row.name}`}>
              <td>{row.name}</td>
              {/* A runner without a GPU writes a peak of 0: it sampled nothing. */}
              <td className="num">{row.mib === 0 ? 'no samples' : `${gib(row.mib)} GiB`}</td>
              <td className="muted">{row.source === 'sampled' ? 'sampled by Cellwatch' : 'runner said'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function GpuView() {
  const hosts = useApp((s) => s.hosts);
  const [host, setHost] = useState(LOCAL);
  const gpu = useFeed((data) => data.gpuOf(host)).value;
  const history = gpu?.history ?? [];
  const latest = history.at(-1);
  const indices = latest?.gpus.map((g) => g.index) ?? [];
  const series = useMemo(
    () => history.map((sample) => ({ t: sample.t, ...Object.fromEntries(sample.gpus.map((g) => [`gpu${g.index}`, g.usedMib === null ? null : g.usedMib / 1024])) })),
    [history],
  );
  return (
    <section className="gpu-view" aria-label="GPU">
      <h1 className="view-title">
        GPU memory <span className="count">nvidia-smi, once a second</span>
        {hosts.length > 0 && (
          <select aria-label="Host" value={host} onChange={(e) => setHost(e.target.value)}>
            {[LOCAL, ...hosts.map((h) => h.alias)].map((alias) => (
              <option key={alias}>{alias}</option>
            ))}
          </select>
        )}
      </h1>
      {isLocal(host) && <SystemLine />}
      {!latest && (
        <p className="empty-note" role="status">
          No GPU sample: {gpu?.problems.at(-1)?.message ?? 'waiting for nvidia-smi'}.
        </p>
      )}
      {latest && (
        <>
          <table className="plain-table" aria-label="GPUs">
            <thead>
              <tr>
                <th>GPU</th>
                <th>Name</th>
                <th className="num">Used</th>
                <th className="num">Free</th>
                <th className="num">Total</th>
                <th className="num">Utilization</th>
              </tr>
            </thead>
            <tbody>
              {latest.gpus.map((g) => (
                <tr key={g.index}>
                  <td>{g.index}</td>
                  <td>{g.name}</td>
                  <td className="num">{gib(g.usedMib)} GiB</td>
                  <td className="num">{gib(g.freeMib)} GiB</td>
                  <td className="num">{gib(g.totalMib)} GiB</td>
                  <td className="num">{g.utilizationPct === null ? 'n/a (MIG?)' : `${g.utilizationPct}%`}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <figure className="chart" aria-label="GPU memory over time">
            <figcaption>Used memory (GiB)</figcaption>
            <div className="chart-body tall">
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={series} margin={{ top: 4, right: 8, bottom: 0, left: -10 }}>
                  <CartesianGrid {...GRID} />
                  <XAxis dataKey="t" type="number" domain={['dataMin', 'dataMax']} tick={AXIS} tickFormatter={(t: number) => new Date(t).toLocaleTimeString()} />
                  <YAxis tick={AXIS} domain={[0, Math.ceil(largest(latest.gpus.map((g) => (g.totalMib ?? 0) / 1024), 0))]} />
                  <Tooltip {...TOOLTIP} labelFormatter={(t) => new Date(Number(t)).toLocaleTimeString()} formatter={(v) => `${Number(v).toFixed(1)} GiB`} />
                  {indices.map((i, n) => (
                    <Line key={i} dataKey={`gpu${i}`} name={`GPU${i}`} stroke={SERIES[n % SERIES.length]} dot={false} isAnimationActive={false} />
                  ))}
                </LineChart>
              </ResponsiveContainer>
            </div>
          </figure>
          <h2 className="section-title">Processes holding GPU memory</h2>
          {latest.processes.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <table className="plain-table" aria-label="GPU processes">
              <tbody>
                {latest.processes.map((p) => (
                  <tr key={p.pid}>
                    <td>pid {p.pid}</td>
                    <td>{p.run ?? <span className="muted">not launched here</span>}</td>
                    <td className="num">{p.usedMib === null ? 'not reported (WDDM)' : `${whole(p.usedMib)} MiB`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      <VramPeaks />
      {gpu && gpu.problems.length > 0 && latest && <p className="muted">Last sampler problem: {gpu.problems.at(-1)?.message}</p>}
    </section>
  );
}
