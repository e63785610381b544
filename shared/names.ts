/** What a run's name alone says of the board: `ui_*` never (any format), `nonstd_*` off by protocol override; null: the format's rule decides. */
export function boardByName(name: string): { board: 'ui' | 'nonstd'; reason: string } | null {
  if (name.startsWith('ui_')) return { board: 'ui', reason: 'launched from a UI (ui_): never on the board' };
  if (name.startsWith('nonstd_')) return { board: 'nonstd', reason: 'a nonstd_ run: its protocol is overridden' };
  return null;
}
