// The bigym-agent board (seed 002): only an official evaluation of the submission counts.
import { arr, obj } from '../common/values';
import type { JsonObject } from '../common/json';
import { counted } from '../../shared/counts';
import { elided, MAX_NAME_CHARS } from '../../shared/elide';

export const BIGYM_BOARD = 'the submission evaluated officially: strict (tools: the ablation, its own row, never compared with strict), 84x84, 100 episodes, no violations, nothing rejected, spot check identical; no slew, tier standard, no external cameras';

/** A value of the files as a reason says it: text as it is, anything else as JSON, cut to a name's size; `none` where absent. */
const said = (value: unknown, none: string) => (value === undefined || value === null ? none : elided(typeof value === 'string' ? value : JSON.stringify(value), MAX_NAME_CHARS));

/**
 * Each way the cell departs from an official evaluation, in words. `summary` is the submission's
 * eval summary (null: none yet), `sandbox` sandbox_config.json (null: missing or unreadable).
 */
export function bigymDepartures(submission: string | undefined, summary: JsonObject | null, sandbox: JsonObject | null): string[] {
  const reasons: string[] = [];
  if (!submission) reasons.push('no policy submitted');
  else if (!summary) reasons.push(`${submission} has no evaluation summary: unscored`);
  else {
    // tools is the ablation: on the board, in a row of its own (the interface is the row's condition).
    if (summary.interface !== 'strict' && summary.interface !== 'tools') reasons.push(`interface ${said(summary.interface, 'unknown')}; the board's is strict, or tools for the ablation`);
    if (summary.image_cap !== '84x84') reasons.push(`image cap ${said(summary.image_cap, 'unknown')}; the board's is 84x84`);
    if (summary.n_episodes !== 100) reasons.push(`${said(summary.n_episodes, 'unknown')} evaluation episodes; the board's is 100`);
    const violations = arr(summary.protocol_violations);
    if (violations.length) reasons.push(counted(violations.length, 'protocol violation'));
    if (arr(summary.rejected).length) reasons.push('rejected: the policy imported the simulator');
    if (obj(summary.spot_check).identical !== true) reasons.push(obj(summary.spot_check).identical === false ? 'spot check failed: reruns differ' : 'no spot check');
  }
  if (!sandbox) return [...reasons, 'sandbox_config.json missing or unreadable: its flags are unknown'];
  if (sandbox.slew !== false) reasons.push(sandbox.slew === true ? 'slew on' : 'slew not stated');
  if (sandbox.tier !== 'standard') reasons.push(`tier ${said(sandbox.tier, 'not stated')}; the board's is standard`);
  if (sandbox.allow_external_cameras !== false) reasons.push(sandbox.allow_external_cameras === true ? 'external cameras allowed' : 'external cameras not stated');
  return reasons;
}
