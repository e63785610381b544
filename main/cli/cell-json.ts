import type { Cell } from '../../shared/model';

/** A cell's fields exactly as runners/FORMATS.md lists them, in that order, whatever else the model carries. */
export function cellJson(cell: Cell): Cell {
  const { id, host, path, format, name, board, board_reasons, state, budget, episodes, success_rate, reward, tokens, cost_usd_estimate, cost_usd_billed, cost_source, problems } = cell;
  return { id, host, path, format, name, board, board_reasons, state, budget, episodes, success_rate, ...(reward ? { reward } : {}), tokens, cost_usd_estimate, cost_usd_billed, cost_source, problems };
}
