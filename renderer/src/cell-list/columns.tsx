import type { CellSummary } from '../../../shared/model';
import { ago, compact, costTitle, dollars, episodesTitle, percent, successTitle, whole } from '../format';
import type { SizedColumn } from '../table-layout';
import { BoardBadge } from './BoardBadge';
import { STATE_LOOK, StatePill, stateWord } from './states';

export interface Column extends SizedColumn<CellSummary> {
  numeric?: boolean;
  sortValue(cell: CellSummary): string | number;
  /** `fit`: the text cut to what the column's cells hold now (the name's, told apart from its alikes). */
  render(cell: CellSummary, now: number, fit: (text: string) => string): React.ReactNode;
}

/** The share of its budget a cell used: past 1 where its count is past its plan (a problem of the cell). */
function budgetFraction(cell: CellSummary): number {
  return cell.budget.total ? cell.budget.used / cell.budget.total : 0;
}

function BudgetBar({ cell }: { cell: CellSummary }) {
  const { used, total, unit } = cell.budget;
  const fraction = budgetFraction(cell);
  const past = total !== null && used > total;
  return (
    <span className={past ? 'budget tone-fail' : 'budget'} title={`${whole(used)} of ${total === null ? '?' : whole(total)} ${unit}${past ? `: ${whole(used - (total ?? 0))} past its plan, a problem of the cell` : ''}`}>
      <span className="bar" role="meter" aria-valuemin={0} aria-valuemax={total ?? 0} aria-valuenow={used} aria-label={`budget ${unit}`}>
        <span className={past ? 'fill tone-fill-fail' : 'fill'} style={{ width: `${Math.min(1, fraction) * 100}%` }} />
      </span>
      {/* Past its plan, a share could be 500,000%: the word fits, the figures are in the tooltip and Episodes. */}
      <span className="budget-text">{past ? 'past' : total ? percent(fraction, 0) : compact(used)}</span>
    </span>
  );
}

/** Tokens in and out, each as `count` writes it (compact in the column, whole in its tooltip), and the cost. */
function tokensText(cell: CellSummary, count: (n: number) => string = compact): string {
  const parts = [];
  if (cell.tokens.input !== null) parts.push(`${count(cell.tokens.input)} in`);
  if (cell.tokens.output !== null) parts.push(`${count(cell.tokens.output)} out`);
  if (cell.cost_usd_estimate !== null) parts.push(`est. ${dollars(cell.cost_usd_estimate)}`);
  if (cell.cost_usd_billed !== null) parts.push(`billed ${dollars(cell.cost_usd_billed)}`);
  return parts.join(' · ') || '–';
}

/**
 * Ended of planned; a cell with policy versions counts its latest version's evaluation, named, so a new
 * version's count starting again at 0 reads as that version's, not as the cell's count going backwards.
 */
const episodesText = (c: CellSummary) =>
  `${c.capabilities.versions && c.policyVersions.length ? `${c.policyVersions.at(-1)} ` : ''}${whole(c.episodes.ended)}/${c.episodes.planned === null ? '?' : whole(c.episodes.planned)}`;

export const COLUMNS: Column[] = [
  { key: 'name', title: 'Name', grow: true, always: true, fit: (c) => c.name, sortValue: (c) => c.name, render: (c, _now, fit) => {
    const shown = fit(c.name);
    return <span className={shown.includes('\n') ? 'name two-lines' : 'name'} title={c.path}>{shown}</span>;
  } },
  { key: 'format', title: 'Format', fit: (c) => c.format, sortValue: (c) => c.format, render: (c) => <span title={c.format}>{c.format}</span> },
  { key: 'board', title: 'Board', widthPx: 44, sortValue: (c) => c.board ?? '', render: (c) => <BoardBadge cell={c} /> },
  {
    // A cell whose unit is stuck or looping says that in place of its state (which its tooltip keeps).
    key: 'state', title: 'State', whole: true, fit: (c) => stateWord(c, Date.now()), sortValue: (c) => STATE_LOOK[c.state].order,
    render: (c, now) => <StatePill state={c.state} pausedUntil={c.pausedUntil} running={c.running} now={now} />,
  },
  { key: 'budget', title: 'Budget', widthPx: 88, numeric: true, sortValue: budgetFraction, render: (c) => <BudgetBar cell={c} /> },
  { key: 'episodes', title: 'Episodes', fit: episodesText, numeric: true, sortValue: (c) => c.episodes.ended, render: (c) => {
    const past = c.episodes.planned !== null && c.episodes.ended > c.episodes.planned;
    return <span className={past ? 'tone-fail' : undefined} title={past ? `${episodesTitle(c)}\n${whole(c.episodes.ended - (c.episodes.planned ?? 0))} past its plan: a problem of the cell` : episodesTitle(c)}>{episodesText(c)}</span>;
  } },
  { key: 'success', title: 'Success', fit: (c) => percent(c.success_rate), numeric: true, sortValue: (c) => c.success_rate ?? -1, render: (c) => <span title={successTitle(c)}>{percent(c.success_rate)}</span> },
  {
    key: 'tokens', title: 'Tokens', fit: (c) => tokensText(c), sortValue: (c) => c.cost_usd_estimate ?? c.tokens.input ?? -1,
    render: (c) => <span title={costTitle(c)}>{tokensText(c)}</span>,
  },
  { key: 'changed', title: 'Changed', widthPx: 72, numeric: true, sortValue: (c) => c.changedAt ?? 0, render: (c, now) => ago(c.changedAt, now) },
  {
    key: 'problems', title: 'Problems', widthPx: 60, numeric: true, sortValue: (c) => c.problems.length,
    render: (c) => (c.problems.length ? <span className="problem-count" title={c.problems.map((p) => `${p.file}: ${p.message}`).join('\n')}>! {c.problems.length}</span> : '–'),
  },
];

/** The cells as a table to copy or save: each figure whole, as `status --json` counts it. */
export function cellsTable(cells: readonly CellSummary[]): { header: string[]; rows: string[][] } {
  const n = (value: number | null) => (value === null ? '' : String(value));
  return {
    header: ['name', 'path', 'host', 'format', 'board', 'state', 'budget used', 'budget total', 'budget unit', 'ended', 'planned', 'scored', 'successes', 'success %', 'tokens in', 'tokens out', 'est. USD', 'problems'],
    rows: cells.map((c) => [
      c.name, c.path, c.host, c.format, c.board ?? '', STATE_LOOK[c.state].label, n(c.budget.used), n(c.budget.total), c.budget.unit, n(c.episodes.ended), n(c.episodes.planned), n(c.episodes.scored), n(c.episodes.successes),
      c.success_rate === null ? '' : (c.success_rate * 100).toFixed(1), n(c.tokens.input), n(c.tokens.output), n(c.cost_usd_estimate), String(c.problems.length),
    ]),
  };
}
