// A resume of an ended launched run: the launch that relaunches it into its own cell under its own name.
import { episodesOfSpec, type LaunchRequest } from '../../shared/launch';
import type { RunView } from './runs';

/**
 * What a resume of `run` with `spec` launches (its knobs, `spec` in its profile's resume knob, or `true`
 * where its runner finds what its cell lacks itself), and the cell it must land in.
 */
export function resumeRequest(run: RunView, spec: string): { request: LaunchRequest; cell: string } {
  if (run.state === 'running' || run.state === 'pending') throw new Error(`${run.name} is still ${run.state}: drain or stop it first`);
  if (!run.resumeKnob) throw new Error(`${run.name} was launched with profile ${run.profile}, which takes no resume spec`);
  if (!run.values) throw new Error(`${run.name} was launched before Cellwatch kept a launch's knobs: launch it again with the episodes in its ${run.resumeKnob} knob`);
  const value = run.resumeSpec === 'missing' ? 'true' : episodesOfSpec(spec);
  return { request: { profile: run.profile, values: { ...run.values, [run.resumeKnob]: value }, name: run.name, target: run.target }, cell: run.cell };
}

/** Why a resume of `name` cannot start: its profile now puts it in `planned`, not in its cell; null where it is its cell. */
export function movedCell(name: string, planned: string, cell: string): string | null {
  return planned === cell ? null : `a resume of ${name} would start in ${planned}, not in its cell ${cell}: its profile changed since; launch it anew`;
}
