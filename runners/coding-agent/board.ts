// The coding-agent board (seed 000: `stdrun.py board`, STD_FROZEN): a std_ run whose protocol on disk is
// std-v2 as frozen. Which episodes ran so far is coverage, never membership.
import { num, obj, str } from '../common/values';
import type { JsonObject } from '../common/json';
import { elided, MAX_NAME_CHARS } from '../../shared/elide';

/** std-v2 as the runner freezes it (STD_FROZEN). */
export const STD_V2 = { name: 'std-v2', max_turns: 200, rgb_resolution: 512, max_actions: 500, timeout_s: 2400 } as const;

export const CODING_AGENT_BOARD = `a std_ run at std-v2: ${STD_V2.max_turns} turns, ${STD_V2.rgb_resolution} px, ${STD_V2.max_actions} actions, ${STD_V2.timeout_s} s`;

const UNITS: Record<Exclude<keyof typeof STD_V2, 'name'>, string> = { max_turns: 'turns', rgb_resolution: 'px', max_actions: 'actions', timeout_s: 's' };

/** Each way the run departs from the board, in words; `run` is run.json as read, null when it could not be. */
export function codingAgentDepartures(name: string, run: JsonObject | null): string[] {
  const reasons: string[] = [];
  if (!name.startsWith('std_')) reasons.push(`${name} is not a std_ run`);
  if (!run) return [...reasons, 'run.json could not be read: its protocol is unknown'];
  const protocol = obj(run.protocol);
  if (Object.keys(protocol).length === 0) return [...reasons, 'run.json has no protocol'];
  const called = str(protocol.name);
  if (called !== STD_V2.name) reasons.push(`protocol ${called === null ? '(unnamed)' : elided(called, MAX_NAME_CHARS)}; the board's is ${STD_V2.name}`);
  for (const [field, unit] of Object.entries(UNITS) as [keyof typeof UNITS, string][]) {
    const value = num(protocol[field]);
    if (value !== STD_V2[field]) reasons.push(`${value === null ? `no ${field}` : `${value} ${unit}`}; ${STD_V2.name} has ${STD_V2[field]} ${unit}`);
  }
  return reasons;
}
