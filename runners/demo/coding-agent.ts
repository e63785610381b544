import { join } from 'node:path';
import { scoredSuccess } from '../coding-agent/score';
import { FPS, runEpisode, type Gains } from './cartpole';
import type { Pace } from './pace';
import { prng } from './prng';
import { renderFrame } from './render';

export const EPISODE_COUNT = 100;
const EPISODE_STEPS = 150;
const STEPS_PER_ACTION = 10;

/**
 * A small real board: two harnesses x two conditions of one model at std-v2 over the same 100 episodes;
 * in each cell the harness and the briefing are the only moved variables.
 */
export const CELLS: { harness: 'sdk' | 'cli'; condition: 'bare' | 'full'; gains: Gains }[] = [
  { harness: 'sdk', condition: 'bare', gains: { x: 0.3, v: 1.0, theta: 28, omega: 4 } },
  { harness: 'sdk', condition: 'full', gains: { x: 1.0, v: 2.2, theta: 42, omega: 8 } },
  { harness: 'cli', condition: 'bare', gains: { x: 0.5, v: 1.2, theta: 24, omega: 3 } },
  { harness: 'cli', condition: 'full', gains: { x: 0.6, v: 1.6, theta: 36, omega: 6 } },
];

export function runName(condition: string, harness = 'sdk'): string {
  return `std_${harness}_demo-model_${condition}_default`;
}

/** How an episode ends when it does not end evaluated: every status of the protocol occurs. */
function scriptedEnd(index: number, condition: string): { status: string; engaged: boolean; error?: string } | null {
  if (index === 7) return { status: 'timeout', engaged: true };
  if (index === 12 && condition === 'bare') return { status: 'rate_limited', engaged: true };
  if (index === 18) return { status: 'infra_error', engaged: false };
  if (index === 23 && condition === 'full') return { status: 'infra_error', engaged: true };
  if (index === 27) return { status: 'error', engaged: true, error: 'harness adapter raised ConnectionResetError' };
  return null;
}

/** Episodes whose model service throttles the session, pausing the episode clock. */
const THROTTLED = new Set([5, 20]);

export async function writeCodingAgentCell(root: string, { harness, condition, gains }: (typeof CELLS)[number], pace: Pace, name = runName(condition, harness)): Promise<void> {
  const cell = join(root, name);
  const planned = Array.from({ length: EPISODE_COUNT }, (_, i) => i);
  await pace.writeJson(join(cell, 'run.json'), {
    runner: 'coding-agent', run: name,
    cell: { harness, model: 'demo-model', condition, effort: 'default' },
    protocol: { name: 'std-v2', episodes: planned, max_turns: 200, rgb_resolution: 512, max_actions: 500, timeout_s: 2400 },
    workers: 1, host: 'local', pid: process.pid, started_at: pace.iso(),
    argv: ['python', 'coding-agent/stdrun.py', 'run', name], inherent: { harness_version: 'demo' },
  });
  const log = (line: string) => pace.appendText(join(cell, 'driver.log'), `${pace.iso()} ${line}\n`);
  await log(`run ${name}: ${EPISODE_COUNT} episodes, 1 worker`);

  const episodes: Record<string, object> = {};
  let vramPeak = 0;
  const random = prng((condition === 'bare' ? 11 : 29) + (harness === 'sdk' ? 0 : 100));
  for (const index of planned) {
    const dir = join(cell, 'episodes', String(index).padStart(4, '0'));
    const trajectory = join(dir, 'trajectory.jsonl');
    let seq = 0;
    const event = async (ev: string, fields: object = {}) => pace.appendLine(trajectory, { seq: seq++, t: pace.now(), ev, ...fields });
    const started = pace.now();
    await log(`episode ${index}: start`);
    await event('episode_start', { episode: index, instruction: 'Keep the pole upright until the episode ends.', budget: { turns: 200, actions: 500, timeout_s: 2400 } });

    const end = scriptedEnd(index, condition);
    const simulated = runEpisode(gains, 700000 + index, EPISODE_STEPS);
    let toolCalls = 0;
    let actions = 0;
    let frames = 0;
    if (end?.engaged !== false) {
      await pace.wait(0.6);
      await event('agent_message', { text: 'I will look at the pole first, then push the cart under it.' });
      const limit = end ? Math.min(simulated.steps, 60) : simulated.steps;
      for (let s = 0; s < limit; s += STEPS_PER_ACTION) {
        if (s % (STEPS_PER_ACTION * 3) === 0) {
          const call = `c${++toolCalls}`;
          await event('tool_call', { call_id: call, name: 'observe_egocentric', args: {} });
          const frame = `frames/${String(++frames).padStart(6, '0')}.png`;
          await pace.writeBytes(join(dir, frame), renderFrame(simulated.states[s] ?? simulated.states[0]!, 'head'));
          await event('tool_result', { call_id: call, name: 'observe_egocentric', ok: true, frame });
        }
        const state = simulated.states[s]!;
        const action = gains.theta * state.theta + gains.omega * state.omega > 0 ? 'push_right' : 'push_left';
        const call = `c${++toolCalls}`;
        await event('tool_call', { call_id: call, name: 'step_discrete', args: { action } });
        await pace.wait((STEPS_PER_ACTION / FPS) * 0.5);
        actions += 1;
        await event('tool_result', { call_id: call, name: 'step_discrete', ok: true, step: { action, done: s + STEPS_PER_ACTION >= limit } });
        if (THROTTLED.has(index) && s === STEPS_PER_ACTION * 2) {
          for (const [attempt, wait_s] of [[1, 6], [2, 12]] as const) {
            await event('throttle', { attempt, wait_s });
            await log(`episode ${index}: throttled, attempt ${attempt}, waiting ${wait_s} s`);
            await pace.wait(wait_s);
          }
        }
      }
    } else {
      await pace.wait(1);
    }

    const status = end?.status ?? 'evaluated';
    const success = status === 'evaluated' ? simulated.success : undefined;
    if (status === 'evaluated') {
      await event('evaluate', { success, metrics: { steps_balanced: simulated.steps, spl: Math.round((simulated.steps / EPISODE_STEPS) * 100) / 100 } });
    }
    const wall = Math.round((pace.now() - started) * 10) / 10;
    await event('episode_end', { status, engaged: end?.engaged ?? true, tool_calls: toolCalls, actions, wall_s: wall, ...(end?.error ? { error: end.error } : {}) });
    await log(`episode ${index}: ${status}${success === undefined ? '' : success ? ' success' : ' failure'}`);

    const used = 18000 + Math.round(random() * 6000);
    vramPeak = Math.max(vramPeak, used);
    await pace.appendLine(join(cell, 'vram.jsonl'), { t: pace.now(), gpu: 0, used_mib: used, total_mib: 143771 });

    episodes[String(index)] = { status, ...(success === undefined ? {} : { success }), engaged: end?.engaged ?? true, tool_calls: toolCalls, actions, wall_s: wall };
    const outcomes = Object.values(episodes).map((e) => scoredSuccess(e as { status: string; success: boolean | null; engaged: boolean | null }));
    const scored = outcomes.filter((success) => success !== null);
    await pace.writeJson(join(cell, 'summary.json'), {
      run: name, updated_at: pace.iso(), finished: index === planned.at(-1), planned, episodes,
      aggregate: { success_rate: scored.length ? scored.filter((success) => success).length / scored.length : null, scored: scored.length, excluded: outcomes.length - scored.length },
      vram_peak_mib: vramPeak,
    });
  }
  await log(`run ${name}: finished`);
}
