// Which listed cells claim one board crossing with others (runners/FORMATS.md: one cell, one place on the
// board), over every root's rows: worked out again whenever rows change, so a cell whose rival came or went
// in another root goes out again too.
import { rivalsOf, withRivals } from '../../shared/board';
import type { CellSummary } from '../../shared/model';

export class BoardClaims {
  /** Each cell that claims its crossing with others, and their places. */
  private rivals = new Map<string, string[]>();

  /** Works the claims out again over these rows; the ids of the cells whose rivals changed. */
  reclaim(rows: readonly CellSummary[]): string[] {
    const before = this.rivals;
    this.rivals = rivalsOf(rows);
    const changed = new Set<string>();
    for (const [id, places] of this.rivals) if (before.get(id)?.join('\0') !== places.join('\0')) changed.add(id);
    for (const id of before.keys()) if (!this.rivals.has(id)) changed.add(id);
    return [...changed];
  }

  /** The row off the board beside its rivals, if it has any. */
  present(row: CellSummary): CellSummary {
    return withRivals(row, this.rivals.get(row.id));
  }
}
