import type { BoardComparison } from '../../../shared/board-comparisons';
import { formatP } from '../../../shared/mcnemar';
import { whole } from '../format';

/** When a comparison would decide, in words (shared/decide.ts), and what that rests on. */
export function decideText(c: BoardComparison): { text: string; title: string } {
  const time = c.decide;
  if (!time) return { text: '', title: '' };
  const paired = c.both + c.only_a + c.only_b + c.neither;
  const title = `Exact McNemar at its Holm level ${formatP(time.level)}, if the discordance so far holds: ${whole(c.only_a + c.only_b)} of ${whole(paired)} paired units discordant, ${Math.max(c.only_a, c.only_b)} to ${Math.min(c.only_a, c.only_b)}.`;
  if (time.further === 0) return { text: 'decided', title: 'Its Holm-adjusted p is below 0.05.' };
  if (time.futile) return { text: time.searched ? `futile: ${whole(time.searched)} left` : 'futile: none left', title: `The ${whole(time.searched)} paired units its plan has left cannot decide it, even all going one way. ${title}` };
  if (time.further !== null) return { text: `${whole(time.further)} more`, title };
  if (c.only_a === c.only_b) return { text: 'never at an even split', title };
  return { text: `not in ${whole(time.searched)} more`, title: `Not within the ${whole(time.searched)} further paired units searched (the plan's units left, or ten times those paired). ${title}` };
}
