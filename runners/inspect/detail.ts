// What the cell view shows of an Inspect log: a row per sample (its outcome, its error or limit, its
// scorers' values, its time and tokens), and the eval's scorers as a table.
import type { EpisodeRow } from '../../shared/cell-detail';
import { counted, whole } from '../../shared/counts';
import { obj, timestampMs } from '../common/values';
import { summedUsage } from './facts';
import type { DetailRead } from '../types';
import type { InspectLog } from './log';
import { reducedMean, scoreNumber, statedMetric, type Outcome } from './outcome';

export function inspectDetail(log: InspectLog, outcomes: Map<string, Outcome>, scorer: string | null): DetailRead {
  const rows: EpisodeRow[] = log.samples.map((s) => {
    const o = outcomes.get(s.unit) as Outcome;
    const usage = s.usage && Object.keys(s.usage).length ? summedUsage(Object.values(s.usage)) : null;
    const tokens = Object.entries(s.usage ?? {}).map(([model, u]) => ({ label: `tokens ${model}`, value: `${whole(u.input ?? 0)} in${u.cachedInput ? ` (${whole(u.cachedInput)} cached)` : ''}, ${whole(u.output ?? 0)} out${u.reasoning ? `, ${whole(u.reasoning)} reasoning` : ''}` }));
    return {
      id: s.unit,
      status: o.unit.status,
      success: o.unit.success,
      scored: o.unit.scored,
      toolCalls: null,
      actions: null,
      wallS: s.totalTimeS,
      t: s.completedAt,
      // Over its models, as the cell's tokens are summed (and priced at the eval model's list price).
      usage: usage && { input: usage.input, cached: usage.cachedInput, output: usage.output },
      note: s.error ?? s.limit ?? (scorer && o.value !== null ? `${scorer} ${JSON.stringify(s.scores[scorer])}` : null),
      hasEvents: false,
      facts: [
        ...Object.entries(s.scores).map(([name, value]) => ({ label: name === scorer ? `${name} (the outcome)` : name, value: JSON.stringify(value ?? null) })),
        ...(s.error ? [{ label: 'error', value: s.error }] : []),
        ...(s.limit ? [{ label: 'limit', value: s.limit }] : []),
        ...(s.totalTimeS !== null ? [{ label: 'took', value: `${s.totalTimeS.toFixed(1)} s` }] : []),
        ...tokens,
      ],
    };
  });
  const scorers = [...new Set(log.samples.flatMap((s) => Object.keys(s.scores)))];
  const tables = scorers.length
    ? [
        {
          id: 'scorers',
          title: 'Scorers',
          columns: ['scorer', 'scored', 'mean (epochs averaged, then samples)', 'the log says'],
          rows: scorers.map((name) => {
            const byName = log.samples.map((s): Outcome => {
              const value = s.error === null ? scoreNumber(s.scores[name]) : null;
              return { unit: { id: s.unit, status: '', success: value === 1, scored: value !== null }, value };
            });
            const mean = reducedMean(byName);
            return [name === scorer ? `${name} (the outcome)` : name, byName.filter((o) => o.unit.scored).length, mean === null ? null : Number(mean.toFixed(4)), statedMetric(log.header, name)?.value ?? null];
          }),
          note: 'A sample scores 1 for C, 0.5 for P, 0 for I and N; the outcome is the first scorer\'s.',
          counted: counted(scorers.length, 'scorer'),
        },
      ]
    : [];
  return { episodes: rows, versions: [], vram: [], startedAt: timestampMs(obj(log.header.stats).started_at) ?? timestampMs(obj(log.header.eval).created), episodeBudget: null, frameSources: [], logStream: null, otherBudgets: [], tables, programs: [] };
}
