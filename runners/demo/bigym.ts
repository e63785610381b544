import { join } from 'node:path';
import { FPS, runEpisode, type Episode } from './cartpole';
import type { Pace } from './pace';
import { policySource, VERSIONS } from './policies';
import { CAMERAS, renderFrame } from './render';

export const BIGYM_TASK = 'cartpole_balance';
/** A second task's session, interrupted (Ctrl-C) after its first version's development episodes. */
export const INTERRUPTED_TASK = 'cartpole_swingup';
const BUDGET_STEPS = 101_000;
const RESET_STEPS = 200;
const EPISODE_STEPS = 150;
export const DEV_SEEDS = Array.from({ length: 8 }, (_, i) => 620001 + i);
export const EVAL_SEEDS = Array.from({ length: 20 }, (_, i) => 900001 + i);
/** Evaluation seeds whose episodes are replayed to frames for every version. */
export const REPLAY_SEEDS = EVAL_SEEDS.slice(0, 2);

async function writeFrames(dir: string, episode: Episode, pace: Pace): Promise<void> {
  for (const camera of CAMERAS) {
    for (const [index, state] of episode.states.entries()) {
      await pace.writeBytes(join(dir, camera, `${String(index).padStart(6, '0')}.png`), renderFrame(state, camera));
    }
  }
}

/**
 * A bigym-agent session: versions, development episodes on the ledger, evaluations and replays; with
 * `interrupted`, it stops after the first version's development episodes, as a Ctrl-C leaves run.json.
 */
export async function writeBigymCell(root: string, pace: Pace, name = BIGYM_TASK, interrupted = false): Promise<void> {
  const cell = join(root, name);
  const tokens = { input: 0, cached_input: 0, output: 0, reasoning: 0 };
  const run = {
    runner: 'bigym-agent', task: name, harness: 'scripted', model: 'demo-agent', effort: 'high', interface: 'strict',
    budget_steps: BUDGET_STEPS, steps_used: 0, resets: 0, status: 'running', verdict: null as string | null,
    started_at: pace.iso(), ended_at: null as string | null, pid: process.pid, auth: 'none', tokens,
    cost: { estimate_usd: 0, billed_usd: null },
  };
  const saveRun = () => pace.writeJson(join(cell, 'run.json'), run);
  await saveRun();
  await pace.writeJson(join(cell, 'sandbox_config.json'), { interface: 'strict', image_cap: '84x84', slew: false, tier: 'standard', allow_external_cameras: false });
  await pace.writeBytes(join(cell, 'allowed_seeds.json'), JSON.stringify(DEV_SEEDS));
  await pace.appendText(join(cell, 'transcript.md'), `# ${name}\n\nTask: keep the pole upright for ${EPISODE_STEPS / FPS} s.\n`);

  for (const { version, gains, note } of VERSIONS) {
    await pace.wait(2);
    await pace.writeBytes(join(cell, 'policies', `${version}.py`), policySource(version, gains, note));
    await pace.appendText(join(cell, 'transcript.md'), `\n## ${version}\n\n${note}. Running the development seeds.\n`);
    tokens.input += 180_000;
    tokens.cached_input += 120_000;
    tokens.output += 9_000;
    tokens.reasoning += 4_000;
    run.cost.estimate_usd = Math.round(((tokens.input - tokens.cached_input) * 1.25e-6 + tokens.cached_input * 0.125e-6 + tokens.output * 10e-6) * 100) / 100;

    let last: Episode | undefined;
    for (const seed of DEV_SEEDS) {
      const episode = runEpisode(gains, seed, EPISODE_STEPS);
      await pace.wait(episode.steps / FPS / 4);
      await pace.appendLine(join(cell, 'ledger.jsonl'), { t: pace.now(), seed, version, steps: episode.steps, success: episode.success, fell: episode.fell });
      run.steps_used += RESET_STEPS + episode.steps;
      run.resets += 1;
      await saveRun();
      last = episode;
    }
    if (last) await writeFrames(join(cell, 'dev', version, String(last.seed)), last, pace);
    if (interrupted) {
      await pace.appendText(join(cell, 'transcript.md'), 'Session interrupted (SIGINT) before an evaluation.\n');
      run.status = 'interrupted';
      run.ended_at = pace.iso();
      await saveRun();
      return;
    }

    const evaluated: { seed: number; success: boolean }[] = [];
    for (const [index, seed] of EVAL_SEEDS.entries()) {
      const episode = runEpisode(gains, seed, EPISODE_STEPS);
      await pace.wait(0.25);
      evaluated.push({ seed, success: episode.success });
      await pace.appendLine(join(cell, 'eval', version, 'progress.jsonl'), { t: pace.now(), index, seed, success: episode.success });
      if (REPLAY_SEEDS.includes(seed)) await writeFrames(join(cell, 'replays', version, String(seed)), episode, pace);
    }
    const successes = evaluated.filter((e) => e.success).length;
    await pace.writeJson(join(cell, 'eval', version, 'summary.json'), {
      version, success_rate: successes / evaluated.length, n_episodes: evaluated.length, episodes: evaluated,
      interface: 'strict', image_cap: '84x84', substrate_fingerprint: 'de30c0de', protocol_violations: [], rejected: [],
      spot_check: { n: 5, identical: true },
    });
    await pace.appendText(join(cell, 'transcript.md'), `Evaluation of ${version}: ${successes}/${evaluated.length} on the hidden seeds.\n`);
  }
  run.status = 'finished';
  run.verdict = 'scored';
  run.ended_at = pace.iso();
  await saveRun();
}
