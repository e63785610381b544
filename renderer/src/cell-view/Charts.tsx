import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useCell } from './context';

const AXIS = { fontSize: 11, fill: 'var(--muted)' };

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <figure className="chart" aria-label={title}>
      <figcaption>{title}</figcaption>
      <div className="chart-body">{children}</div>
    </figure>
  );
}

export function Charts() {
  const episodes = useCell(useShallow((s) => s.detail?.episodes ?? []));
  const vram = useCell(useShallow((s) => s.detail?.vram ?? []));

  const success = useMemo(() => {
    let scored = 0;
    let wins = 0;
    return episodes
      .filter((e) => e.status !== 'running' && e.scored)
      .map((e, i) => {
        scored++;
        if (e.success) wins++;
        return { n: i + 1, rate: Math.round((wins / scored) * 1000) / 10 };
      });
  }, [episodes]);
  const tools = useMemo(() => episodes.filter((e) => e.toolCalls !== null).map((e) => ({ id: e.id, calls: e.toolCalls })), [episodes]);
  const memory = useMemo(() => vram.map((s) => ({ t: s.t, gib: Math.round((s.usedMib / 1024) * 10) / 10 })), [vram]);

  return (
    <div className="charts">
      <Panel title="Success rate over ended episodes (%)">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={success} margin={{ top: 4, right: 8, bottom: 0, left: -20 }}>
            <CartesianGrid stroke="var(--line)" vertical={false} />
            <XAxis dataKey="n" tick={AXIS} />
            <YAxis domain={[0, 100]} tick={AXIS} />
            <Tooltip />
            <Line type="stepAfter" dataKey="rate" stroke="var(--ok)" dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </Panel>
      {tools.length > 0 && (
        <Panel title="Tool calls per episode">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={tools} margin={{ top: 4, right: 8, bottom: 0, left: -20 }}>
              <CartesianGrid stroke="var(--line)" vertical={false} />
              <XAxis dataKey="id" tick={AXIS} />
              <YAxis tick={AXIS} />
              <Tooltip />
              <Bar dataKey="calls" fill="var(--running)" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </Panel>
      )}
      {memory.length > 0 && (
        <Panel title="GPU memory (GiB, vram.jsonl)">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={memory} margin={{ top: 4, right: 8, bottom: 0, left: -20 }}>
              <CartesianGrid stroke="var(--line)" vertical={false} />
              <XAxis dataKey="t" type="number" domain={['dataMin', 'dataMax']} tick={AXIS} tickFormatter={(t: number) => new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })} />
              <YAxis tick={AXIS} />
              <Tooltip labelFormatter={(t) => new Date(Number(t)).toLocaleTimeString()} />
              <Line type="monotone" dataKey="gib" stroke="var(--amber)" dot={false} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </Panel>
      )}
    </div>
  );
}
