import { MAX_NAME_CHARS } from '../../shared/elide';
import { identityName } from '../common/identity-name';
import { obj, str } from '../common/values';

/** What a unit of a collection of several agents adds to its agent's name: `/<task>#<rollout>`, each a safe integer. */
const UNIT_CHARS = 40;

/**
 * The name an `agent_ref` gives its agent, as every count, square, address (`FILE@AGENT`) and view carries
 * it: a row may name its agent with megabytes. Its units' ids (`<agent>/<task>#<rollout>`) stay within a
 * name's most too. Null where the ref names none.
 */
export function agentName(ref: unknown): string | null {
  const name = str(obj(ref).name);
  return name === null ? null : identityName(name, MAX_NAME_CHARS - UNIT_CHARS);
}
