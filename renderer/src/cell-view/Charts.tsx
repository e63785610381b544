import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type XAxisTickContentProps } from 'recharts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { clockTime } from '../../../shared/model';
import type { EpisodeRow, VersionRow } from '../../../shared/cell-detail';
import { useCell } from './context';
import { bucketMax, thin } from './decimate';
import { labelInterval, MOST_LABELS } from './axisLabels';
import { groupsOf, percentOf, spendByHour, successSoFar, type HourSpend, type SuccessPoint } from './chartPoints';
import { counted, dollars, fineDollars } from '../format';
import { AXIS, chartText, GRID, LEGEND, niceTicks, SERIES, TOOLTIP } from '../chart-style';
import { useRoom, type Room } from '../table-layout';

/** At most this many points a line and bars a chart: about one each 2 px of a chart's width. */
const LINE_POINTS = 200;
const BARS = 80;
/** A chart's width left of and right of its points: recharts' y axis (60 px) and the margins, at most. */
const PLOT_INSET_PX = 64;

/**
 * Which points an episode axis labels (recharts' `interval`): every nth, as many as the longest id fits side
 * by side in the chart's width (a rollout's id is 26 characters), at most six (labelInterval).
 */
function everyNth(ids: string[], room: Room | null): number {
  if (!room) return Math.max(0, Math.ceil(ids.length / MOST_LABELS) - 1);
  const longest = ids.reduce((a, id) => (id.length > a.length ? id : a), '');
  return labelInterval(ids.length, room.px - PLOT_INSET_PX, room.textPx(chartText(longest)));
}

/** An episode axis's label; the first starts at its point and the last ends at it, so a long id is not cut at the chart's edges. */
function EpisodeTick({ x, y, index, visibleTicksCount, payload }: XAxisTickContentProps) {
  return (
    <text x={x} y={y} dy={12} textAnchor={index === 0 ? 'start' : index === visibleTicksCount - 1 ? 'end' : 'middle'} {...AXIS}>
      {chartText(String(payload.value))}
    </text>
  );
}

/** A chart's frame: its title (and a control beside it), and its body measured (in its axes' font) for the labels that fit. */
function Panel({ title, control, children }: { title: string; control?: React.ReactNode; children: (room: Room | null) => React.ReactNode }) {
  const body = useRef<HTMLDivElement>(null);
  const room = useRoom(body, true);
  return (
    <figure className="chart" aria-label={title}>
      <figcaption>
        {title}
        {control}
      </figcaption>
      <div className="chart-body" ref={body}>
        {children(room)}
      </div>
    </figure>
  );
}

/**
 * How many charts to draw: none in the first paint (the cell's figures show before any chart is built),
 * then one more each frame, so no one task builds them all.
 */
function useStaggered(count: number): number {
  const [drawn, setDrawn] = useState(0);
  useEffect(() => {
    if (drawn >= count) return;
    const frame = requestAnimationFrame(() => setDrawn((n) => n + 1));
    return () => cancelAnimationFrame(frame);
  }, [drawn, count]);
  return drawn;
}

/** A line per group drawn at most: the latest versions (or first agents) past it are left out, and the title says so. */
const MOST_GROUPS = SERIES.length;
/** The pooled line's name, beside the groups'. */
const POOLED = 'all pooled';

/** A figure of each unit, as bars in the units' order: at most BARS, each a group's most where there are more. */
type Bars = { episode: string; value: number; count: number }[];

function perUnit(episodes: readonly EpisodeRow[], value: (e: EpisodeRow) => number | null): Bars {
  const known = episodes.filter((e) => value(e) !== null);
  return bucketMax(known, BARS, (e) => value(e) as number, (e) => e.id).map((b) => ({ episode: b.name, value: b.value, count: b.count }));
}

/** A per-unit figure's bars (tool calls, tokens), titled as each bar is: a unit's, or the most of a group of them. */
function UnitBars({ bars, title, unit, label, fill }: { bars: Bars; title: string; unit: 'episode' | 'unit'; label: string; fill: string }) {
  const bucketed = bars.some((b) => b.count > 1);
  const ticks = niceTicks(bars.reduce((most, b) => Math.max(most, b.value), 0), { whole: true });
  return (
    <Panel title={bucketed ? `${title} (most in each group of ${unit}s)` : title}>
      {(room) => (
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={bars} margin={{ top: 4, right: 8, bottom: 0, left: -4 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="episode" tick={EpisodeTick} interval={everyNth(bars.map((b) => b.episode), room)} />
            <YAxis tick={AXIS} domain={[0, ticks.at(-1) as number]} ticks={ticks} tickFormatter={(n: number) => n.toLocaleString('en-US')} />
            <Tooltip {...TOOLTIP} labelFormatter={(id) => `${unit} ${String(id)}`} formatter={(n) => [Number(n).toLocaleString('en-US'), bucketed ? `${label} (most)` : label]} />
            <Bar dataKey="value" fill={fill} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </Panel>
  );
}

/** A point a version puts on its chart: its development success and its evaluation score, in %, each null where it has none. */
type VersionPoint = { version: string; dev: number | null; evaluation: number | null; devEpisodes: number };

/** Each policy version's development success and evaluation score, side by side and never pooled, in the versions' order. */
function VersionScores({ versions }: { versions: readonly VersionRow[] }) {
  const points: VersionPoint[] = versions.map((v) => ({
    version: v.version,
    dev: v.devEpisodes ? percentOf(v.devSuccesses / v.devEpisodes) : null,
    evaluation: v.evalState === 'scored' && v.evalRate !== null ? percentOf(v.evalRate) : null,
    devEpisodes: v.devEpisodes,
  }));
  return (
    <Panel title="Each version: development success and evaluation score (%)">
      {(room) => (
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -20 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="version" tick={AXIS} padding={{ left: 20, right: 20 }} interval={everyNth(points.map((p) => p.version), room)} />
            <YAxis domain={[0, 100]} tick={AXIS} unit="%" />
            <Tooltip {...TOOLTIP} labelFormatter={(v) => `version ${String(v)}`} formatter={(rate, name, item) => [name === 'development' ? `${String(rate)}% of ${(item.payload as VersionPoint).devEpisodes} episodes` : `${String(rate)}%`, String(name)]} />
            <Legend verticalAlign="top" height={18} iconSize={8} wrapperStyle={LEGEND} formatter={(name) => chartText(String(name))} />
            <Line name="development" dataKey="dev" stroke={SERIES[0]} dot isAnimationActive={false} />
            <Line name="evaluation" dataKey="evaluation" stroke={SERIES[1]} dot isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      )}
    </Panel>
  );
}

const hourOf = (ms: number) => new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const hourTick = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** The estimated spend per hour, at list prices, by the hour its units ended in: a bar an hour. */
function SpendPerHour({ hours }: { hours: HourSpend[] }) {
  const ticks = niceTicks(hours.reduce((most, h) => Math.max(most, h.usd), 0));
  return (
    <Panel title="Est. spend per hour at list prices ($), by when units ended">
      {() => (
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={hours} margin={{ top: 4, right: 8, bottom: 0, left: -4 }}>
            <CartesianGrid {...GRID} />
            <XAxis dataKey="hour" tick={AXIS} tickFormatter={hourTick} minTickGap={24} />
            <YAxis tick={AXIS} tickFormatter={fineDollars} width={64} domain={[0, ticks.at(-1) as number]} ticks={ticks} />
            <Tooltip {...TOOLTIP} labelFormatter={(ms) => `the hour from ${hourOf(Number(ms))}`} formatter={(usd, _name, item) => [`${dollars(Number(usd))} for ${counted((item.payload as HourSpend).units, 'unit')}`, 'est. spend']} />
            <Bar dataKey="usd" fill="var(--ok)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </Panel>
  );
}

export function Charts() {
  const episodes = useCell(useShallow((s) => s.detail?.episodes ?? []));
  // A cell of policy versions, or a collection of agents, draws a line for each; their pool only when asked.
  const versions = useCell((s) => s.detail?.summary.capabilities.versions === true);
  const [pooledShown, setPooledShown] = useState(false);
  const vram = useCell(useShallow((s) => s.detail?.vram ?? []));
  const versionRows = useCell(useShallow((s) => s.detail?.versions ?? []));

  // Both episode charts are numbered by the episode's own id.
  const success = useMemo(() => successSoFar(episodes, LINE_POINTS), [episodes]);
  const allGroups = useMemo(() => groupsOf(episodes), [episodes]);
  const grouped = allGroups.length > 1;
  const groups = versions ? allGroups.slice(-MOST_GROUPS) : allGroups.slice(0, MOST_GROUPS);
  const unit = versions ? 'version' : 'agent';
  const successTitle = !grouped
    ? 'Success rate so far (%), by episode'
    : `Success so far (%), each ${unit}'s ${versions ? 'development episodes' : 'rollouts'}${groups.length < allGroups.length ? ` (the ${versions ? 'latest' : 'first'} ${groups.length} of ${allGroups.length} ${unit}s)` : ''}${pooledShown ? ', and all pooled' : ''}`;
  const scoredOf = (point: SuccessPoint, series: string) => (series === POOLED ? point.scored : (point.groups[series]?.scored ?? 0));
  const tools = useMemo(() => perUnit(episodes, (e) => e.toolCalls), [episodes]);
  const tokens = useMemo(() => perUnit(episodes, (e) => (e.usage && (e.usage.input !== null || e.usage.output !== null) ? (e.usage.input ?? 0) + (e.usage.output ?? 0) : null)), [episodes]);
  const price = useCell((s) => s.detail?.summary.listPrice ?? null);
  const spend = useMemo(() => (price ? spendByHour(episodes, price) : []), [episodes, price]);
  const memory = useMemo(() => thin(vram.map((s) => ({ t: s.t, gib: Math.round((s.usedMib / 1024) * 10) / 10 })), LINE_POINTS), [vram]);
  const charts = [
    success.length > 0 && (
      <Panel
        key="success"
        title={successTitle}
        control={
          grouped && (
            <label className="chart-control">
              <input type="checkbox" checked={pooledShown} onChange={(e) => setPooledShown(e.target.checked)} /> pooled
            </label>
          )
        }
      >
        {(room) => (
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={success} margin={{ top: 4, right: 8, bottom: 0, left: -20 }}>
              <CartesianGrid {...GRID} />
              <XAxis dataKey="episode" tick={EpisodeTick} interval={everyNth(success.map((p) => p.episode), room)} />
              <YAxis domain={[0, 100]} tick={AXIS} unit="%" />
              <Tooltip {...TOOLTIP} labelFormatter={(id) => `episode ${String(id)}`} formatter={(rate, name, item) => [`${String(rate)}% of ${scoredOf(item.payload as SuccessPoint, String(name))} scored`, grouped ? String(name) : 'success']} />
              {grouped && <Legend verticalAlign="top" height={18} iconSize={8} wrapperStyle={LEGEND} formatter={(name) => chartText(String(name))} />}
              {grouped && groups.map((g, i) => <Line key={g} name={g} type="stepAfter" dataKey={(p: SuccessPoint) => p.groups[g]?.rate} stroke={SERIES[i % SERIES.length]} dot={false} connectNulls isAnimationActive={false} />)}
              {(!grouped || pooledShown) && <Line name={POOLED} type="stepAfter" dataKey="rate" stroke={grouped ? 'var(--text)' : 'var(--ok)'} strokeDasharray={grouped ? '4 3' : undefined} dot={false} isAnimationActive={false} />}
            </LineChart>
          </ResponsiveContainer>
        )}
      </Panel>
    ),
    versionRows.length > 0 && <VersionScores key="versions" versions={versionRows} />,
    tools.length > 0 && <UnitBars key="tools" bars={tools} title="Tool calls per episode" unit="episode" label="tool calls" fill="var(--running)" />,
    tokens.length > 0 && <UnitBars key="tokens" bars={tokens} title="Tokens per unit, in and out" unit="unit" label="tokens" fill="var(--amber)" />,
    spend.length > 0 && <SpendPerHour key="spend" hours={spend} />,
    memory.length > 0 && (
      <Panel key="memory" title="GPU memory (GiB, vram.jsonl), by time">
        {() => (
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={memory} margin={{ top: 4, right: 8, bottom: 0, left: -20 }}>
              <CartesianGrid {...GRID} />
              <XAxis dataKey="t" type="number" domain={['dataMin', 'dataMax']} tick={AXIS} tickFormatter={clockTime} minTickGap={24} />
              <YAxis tick={AXIS} unit=" GiB" width={64} />
              <Tooltip {...TOOLTIP} labelFormatter={(t) => clockTime(Number(t))} formatter={(gib) => [`${String(gib)} GiB`, 'used']} />
              <Line type="monotone" dataKey="gib" stroke="var(--amber)" dot={false} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        )}
      </Panel>
    ),
  ].filter(Boolean);
  const drawn = useStaggered(charts.length);
  return (
    <div className="charts" aria-busy={drawn < charts.length}>
      {charts.slice(0, drawn)}
    </div>
  );
}
