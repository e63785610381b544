import { createHash } from 'node:crypto';
import { elided, MAX_NAME_CHARS } from '../../shared/elide';

/** What a long name's hash adds to it: " #" and 12 hex digits. */
const HASH_CHARS = 14;

/**
 * A name that is also an identity (an agent, a unit a paired test pairs), within a name's most: over it (a
 * hostile size), its start and end and 12 hex digits of the whole's SHA-256, so two names alike at both ends
 * stay two, and one name is the same wherever it is read. `most`: fewer, for a name that is part of another.
 */
export function identityName(name: string, most = MAX_NAME_CHARS): string {
  if (name.length <= most) return name;
  return `${elided(name, most - HASH_CHARS)} #${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}
