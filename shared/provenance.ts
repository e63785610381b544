// Where each figure of a cell comes from, in words: the window's tooltips and `cellwatch status --explain`
// say the same, from the same row.
import { counted, dollars, share, whole } from './counts';
import type { CellSummary } from './model';
import { wilson95 } from './stats';

/** One figure: what it is, its value with its word, and the files and rule that made it. */
export interface Provenance {
  figure: 'units' | 'success' | 'budget' | 'board' | 'tokens' | 'estimate' | 'runner' | 'billed';
  value: string;
  from: string;
}

type Explained = Pick<CellSummary, 'format' | 'episodes' | 'excludedBy' | 'success_rate' | 'budget' | 'board' | 'board_reasons' | 'boardName' | 'tokens' | 'cost_usd_estimate' | 'cost_source' | 'runnerCostUsd' | 'cost_usd_billed'>;

/** "17/38 · 44.7% · 95% CI 30.1–60.3%" (1,500/3,000 …): successes of scored, the rate, its Wilson interval, as every view and the CLI say it. */
export function successText(successes: number, scored: number): string {
  const interval = wilson95(successes, scored);
  if (!interval) return 'nothing scored yet';
  return `${whole(successes)}/${whole(scored)} · ${share(successes / scored)} · 95% CI ${(interval[0] * 100).toFixed(1)}–${share(interval[1])}`;
}

/** Each figure the cell shows, with where it comes from; `rule`: its format's board rule, when it keeps one. */
export function provenanceOf(cell: Explained, rule: string | null = null): Provenance[] {
  const { scored, ended, planned, successes, excluded } = cell.episodes;
  const why = Object.entries(cell.excludedBy).map(([status, n]) => `${status} ${whole(n)}`).join(', ');
  const lines: Provenance[] = [
    {
      figure: 'units',
      value: `${whole(scored)} scored of ${whole(ended)} ended${planned === null ? '' : ` · ${whole(planned)} planned`}`,
      from: `each unit (episode, seed, rollout, trial) once, as the ${cell.format} files give it${excluded ? `; ${counted(excluded, 'excluded')}: ${why}` : ''}`,
    },
  ];
  if (cell.success_rate !== null) {
    const ofUnits = scored > 0 && Math.abs(cell.success_rate - successes / scored) < 1e-9;
    lines.push({
      figure: 'success',
      value: ofUnits ? successText(successes, scored) : share(cell.success_rate),
      from: ofUnits ? `successes / scored${cell.boardName ? ` under ${cell.boardName}'s scoring` : ''}; Wilson 95 % interval` : 'a rejected policy scores 0 on every seed',
    });
  }
  lines.push({ figure: 'budget', value: `${whole(cell.budget.used)} of ${cell.budget.total === null ? '?' : whole(cell.budget.total)} ${cell.budget.unit}`, from: `the ${cell.budget.unit} the run spent, counted from its files` });
  if (cell.board !== null) {
    const value = cell.board === 'on' ? `on ${cell.boardName ?? 'its board'}` : cell.board;
    lines.push({ figure: 'board', value, from: [rule ? `the rule: ${rule}` : null, ...cell.board_reasons].filter(Boolean).join('; ') });
  }
  const t = cell.tokens;
  if (t.input !== null || t.output !== null) {
    const value = [t.input !== null && `${whole(t.input)} in`, t.cached_input !== null && `${whole(t.cached_input)} cached`, t.output !== null && `${whole(t.output)} out`, t.reasoning !== null && `${whole(t.reasoning)} reasoning`].filter(Boolean).join(' · ');
    lines.push({ figure: 'tokens', value, from: 'summed as the files count them; a negative count is a problem, left out' });
  } else lines.push({ figure: 'tokens', value: '–', from: `the ${cell.format} files record no token counts` });
  const estimated = cell.cost_usd_estimate !== null;
  lines.push({ figure: 'estimate', value: estimated ? `est. ${dollars(cell.cost_usd_estimate as number)}` : 'no estimate', from: estimated ? `tokens at list price, ${cell.cost_source ?? ''}` : (cell.cost_source ?? 'not priced') });
  if (cell.runnerCostUsd !== null) lines.push({ figure: 'runner', value: dollars(cell.runnerCostUsd), from: "the runner's own figure, shown apart: not used for the estimate" });
  if (cell.cost_usd_billed !== null) lines.push({ figure: 'billed', value: dollars(cell.cost_usd_billed), from: 'what the provider charged, summed' });
  return lines;
}

/** The lines of these figures as a tooltip says them. */
export const provenanceText = (lines: Provenance[]) => lines.map((l) => `${l.value}: ${l.from}`).join('\n');
