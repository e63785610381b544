import { createHash } from 'node:crypto';
import { elided, MAX_NAME_CHARS } from '../../shared/elide';
import { obj, str } from '../common/values';

/** What a long name's hash adds to it: " #" and 12 hex digits. */
const HASH_CHARS = 14;

/**
 * The name an `agent_ref` gives its agent, as every count, square, address (`FILE@AGENT`) and view carries
 * it. One longer than a name's most (a hostile size: a row may name its agent with megabytes) is cut to
 * its start and end and told apart from any other cut alike by a hash of it whole: two such agents are never
 * one. Null where the ref names none.
 */
export function agentName(ref: unknown): string | null {
  const name = str(obj(ref).name);
  if (name === null || name.length <= MAX_NAME_CHARS) return name;
  return `${elided(name, MAX_NAME_CHARS - HASH_CHARS)} #${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}
