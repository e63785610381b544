import { join } from 'node:path';
import { runEpisode, type Gains } from './cartpole';
import type { Pace } from './pace';
import { policySource } from './policies';

export const EVO_RECORD = 'cartpole_evo';
const EPISODE_STEPS = 150;
const POOL_SEED = 800000;
const TEST_SEED = 810000;

/** Submissions of the record: the second one fails program capture and is charged nothing. */
const SUBMISSIONS: { gains: Gains; episodes: number[]; captureFails?: boolean }[] = [
  { gains: { x: 0.5, v: 1.2, theta: 24, omega: 3 }, episodes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] },
  { gains: { x: 0.6, v: 1.6, theta: 36, omega: 6 }, episodes: [10, 11, 12], captureFails: true },
  { gains: { x: 0.6, v: 1.6, theta: 36, omega: 6 }, episodes: [10, 11, 12, 13, 14, 15, 16, 17, 18, 19] },
  { gains: { x: 1.0, v: 2.2, theta: 42, omega: 8 }, episodes: [20, 21, 22, 23, 24, 25, 26, 27] },
];

export async function writeEvopolicygymRecord(root: string, pace: Pace, name = EVO_RECORD): Promise<void> {
  const record = join(root, name);
  const config = {
    split: 'train', max_submissions: 3, episode_budget: 30, episode_pool_size: 60, max_episodes_per_submission: 10, seed: 42,
    episode_timeout_seconds: 30.0, agent_timeout_seconds: 3600.0,
  };
  const run = {
    runner: 'evopolicygym', benchmark: 'cartpole', agent: { provider: 'scripted', model: 'demo-agent', effort: 'high' }, config,
    terminal_reason: null as string | null, selected_program: null as string | null, handed_off: [] as string[], validation: null, assessment: null as object | null,
  };
  await pace.writeJson(join(record, 'run.json'), run);
  const event = (type: string, fields: object = {}) => pace.appendLine(join(record, 'events.jsonl'), { t: pace.now(), type, ...fields });
  const say = (text: string) => pace.appendLine(join(record, 'agent', 'stdout.jsonl'), { type: 'item.completed', item: { type: 'agent_message', text } });
  await event('run_started');

  let best: { id: string; gains: Gains; rate: number } | undefined;
  for (const [n, submission] of SUBMISSIONS.entries()) {
    const id = `submission-${String(n + 1).padStart(6, '0')}`;
    await pace.wait(3);
    await say(`Submitting ${id} with gains ${JSON.stringify(submission.gains)}.`);
    await event('submission_started', { submission: id, episodes: submission.episodes });
    if (submission.captureFails) {
      await pace.wait(1);
      await event('submission_failed', { submission: id, reason: 'program capture failed: policy.py missing act()', charged: 0 });
      continue;
    }
    await pace.writeBytes(join(record, 'programs', id, 'policy.py'), policySource(id, submission.gains, 'evolved controller'));
    if (best) await pace.writeBytes(join(record, 'programs', id, 'NOTES.md'), `# ${id}\n\nAfter ${best.id} (${Math.round(best.rate * 100)} % of its episodes): gains ${JSON.stringify(submission.gains)}.\n`);
    const episodes = [];
    for (const index of submission.episodes) {
      const episode = runEpisode(submission.gains, POOL_SEED + index, EPISODE_STEPS);
      await pace.wait(0.4);
      episodes.push({ index, return: episode.return, success: episode.success, steps: episode.steps });
    }
    await pace.writeJson(join(record, 'feedback', `${id}.json`), { submission: id, charged: episodes.length, episodes });
    await event('submission_completed', { submission: id, charged: episodes.length });
    const rate = episodes.filter((e) => e.success).length / episodes.length;
    if (!best || rate >= best.rate) best = { id, gains: submission.gains, rate };
  }

  await event('finish', { candidates: best ? [best.id] : [] });
  if (best) {
    const episodes = Array.from({ length: 20 }, (_, index) => {
      const episode = runEpisode(best.gains, TEST_SEED + index, EPISODE_STEPS);
      return { index, success: episode.success, return: episode.return };
    });
    await pace.wait(2);
    run.selected_program = best.id;
    run.handed_off = [best.id];
    run.assessment = { split: 'test', program: best.id, success_rate: episodes.filter((e) => e.success).length / episodes.length, episodes };
    await event('assessment_completed', { program: best.id });
  }
  run.terminal_reason = 'finished';
  await event('run_finished', { terminal_reason: 'finished' });
  await pace.writeJson(join(record, 'run.json'), run);
}
