import type { CellSummary } from '../../../shared/model';
import { ago, compact, costTitle, percent, successText } from '../format';
import { BoardBadge } from './BoardBadge';
import { STATE_LOOK, StatePill } from './states';

export interface Column {
  key: string;
  title: string;
  width: string;
  numeric?: boolean;
  sortValue(cell: CellSummary): string | number;
  render(cell: CellSummary, now: number): React.ReactNode;
}

function budgetFraction(cell: CellSummary): number {
  return cell.budget.total ? Math.min(1, cell.budget.used / cell.budget.total) : 0;
}

function BudgetBar({ cell }: { cell: CellSummary }) {
  const { used, total, unit } = cell.budget;
  const fraction = budgetFraction(cell);
  return (
    <span className="budget" title={`${used.toLocaleString()} of ${total?.toLocaleString() ?? '?'} ${unit}`}>
      <span className="bar" role="meter" aria-valuemin={0} aria-valuemax={total ?? 0} aria-valuenow={used} aria-label={`budget ${unit}`}>
        <span className="fill" style={{ width: `${fraction * 100}%` }} />
      </span>
      <span className="budget-text">{total ? percent(fraction, 0) : compact(used)}</span>
    </span>
  );
}

function tokens(cell: CellSummary) {
  const parts = [];
  if (cell.tokens.input !== null) parts.push(`${compact(cell.tokens.input)} in`);
  if (cell.tokens.output !== null) parts.push(`${compact(cell.tokens.output)} out`);
  if (cell.cost_usd_estimate !== null) parts.push(`est. $${cell.cost_usd_estimate.toFixed(2)}`);
  if (cell.cost_usd_billed !== null) parts.push(`billed $${cell.cost_usd_billed.toFixed(2)}`);
  return <span title={costTitle(cell) || undefined}>{parts.join(' · ') || '–'}</span>;
}

export const COLUMNS: Column[] = [
  { key: 'name', title: 'Name', width: 'minmax(110px, 2fr)', sortValue: (c) => c.name, render: (c) => <span className="name" title={c.path}>{c.name}</span> },
  { key: 'format', title: 'Format', width: '80px', sortValue: (c) => c.format, render: (c) => c.format },
  { key: 'board', title: 'Board', width: '44px', sortValue: (c) => c.board ?? '', render: (c) => <BoardBadge cell={c} /> },
  { key: 'state', title: 'State', width: '84px', sortValue: (c) => STATE_LOOK[c.state].order, render: (c) => <StatePill state={c.state} pausedUntil={c.pausedUntil} /> },
  { key: 'budget', title: 'Budget', width: '88px', numeric: true, sortValue: budgetFraction, render: (c) => <BudgetBar cell={c} /> },
  {
    key: 'episodes', title: 'Episodes', width: '60px', numeric: true, sortValue: (c) => c.episodes.ended,
    render: (c) => `${c.episodes.ended}/${c.episodes.planned ?? '?'}`,
  },
  { key: 'success', title: 'Success', width: '58px', numeric: true, sortValue: (c) => c.success_rate ?? -1, render: (c) => <span title={successText(c.episodes.successes, c.episodes.scored)}>{percent(c.success_rate)}</span> },
  { key: 'tokens', title: 'Tokens', width: 'minmax(78px, 1fr)', sortValue: (c) => c.cost_usd_estimate ?? c.tokens.input ?? -1, render: tokens },
  { key: 'changed', title: 'Changed', width: '72px', numeric: true, sortValue: (c) => c.changedAt ?? 0, render: (c, now) => ago(c.changedAt, now) },
  {
    key: 'problems', title: 'Problems', width: '60px', numeric: true, sortValue: (c) => c.problems.length,
    render: (c) => (c.problems.length ? <span className="problem-count" title={c.problems.map((p) => `${p.file}: ${p.message}`).join('\n')}>! {c.problems.length}</span> : '–'),
  },
];

export function matches(cell: CellSummary, filter: string): boolean {
  if (!filter) return true;
  const haystack = [cell.name, cell.format, cell.board, STATE_LOOK[cell.state].label, cell.path, ...Object.values(cell.labels)].join(' ').toLowerCase();
  return filter.toLowerCase().split(/\s+/).every((word) => haystack.includes(word));
}
