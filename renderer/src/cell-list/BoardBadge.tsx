import type { CellSummary } from '../../../shared/model';

const LABEL = { on: 'on board', off: 'off board', ui: 'ui run', nonstd: 'nonstd' } as const;

/** Where the cell stands with its board, its reasons in the tooltip; nothing for a format with no board. */
export function BoardBadge({ cell, long = false }: { cell: Pick<CellSummary, 'board' | 'board_reasons' | 'boardName'>; long?: boolean }) {
  if (cell.board === null) return null;
  const title = cell.board === 'on' ? `on the ${cell.boardName ?? ''} board`.replace('  ', ' ') : cell.board_reasons.join('\n');
  return (
    <span className={`badge board-${cell.board}`} title={title}>
      {long ? LABEL[cell.board] : cell.board}
    </span>
  );
}
