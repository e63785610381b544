// `npm run bench:hostile`: the third red team's cells (issue 43) opened in serve while a client calls
// getInfo every 50 ms: the worst latency of those calls while each opens, beside an idle stretch's, how long
// each took, and serve's RSS throughout.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import { served } from './long-tasks';
import { measure, ROOT, row } from './measure';

const PING_MS = 50;
const DISCORDANT = 250_000;
const BIG_ROW_MB = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const rollout = (task: number, text: string) =>
  JSON.stringify({
    responses_create_params: { input: [{ role: 'user', content: 'q' }] },
    response: { model: 'm', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }], usage: { input_tokens: 10, output_tokens: 2 } },
    reward: 1,
    _ng_task_index: task,
    _ng_rollout_index: 0,
  });

/** The red team's cells: a row holding "usage" 40,000 times, three links to "." in a program, a 100 MB row, and two summaries of 250,000 discordant seeds each way. */
function hostileRoot(root: string): void {
  mkdirSync(join(root, 'nemo_usage'), { recursive: true });
  writeFileSync(join(root, 'nemo_usage', 'rollouts.jsonl'), `${rollout(0, 'fine')}\n${rollout(1, '"usage": 1, '.repeat(40_000))}\n${rollout(2, 'fine')}\n`);

  const program = join(root, 'evo_links', 'programs', 'submission-000001');
  mkdirSync(program, { recursive: true });
  writeFileSync(join(root, 'evo_links', 'run.json'), JSON.stringify({ runner: 'evopolicygym', benchmark: 'cartpole', config: { episode_budget: 30 }, agent: {}, selected_program: 'submission-000001' }));
  writeFileSync(join(root, 'evo_links', 'events.jsonl'), `${JSON.stringify({ type: 'submission_completed', submission: 'submission-000001', charged: 6 })}\n`);
  writeFileSync(join(program, 'policy.py'), 'def act(obs):\n    return 0\n');
  for (const link of ['a', 'b', 'c']) symlinkSync('.', join(program, link));

  mkdirSync(join(root, 'nemo_big'), { recursive: true });
  writeFileSync(join(root, 'nemo_big', 'rollouts.jsonl'), `${rollout(0, 'fine')}\n${rollout(1, 'x'.repeat(BIG_ROW_MB << 20))}\n${rollout(2, 'fine')}\n`);

  const sandbox = { interface: 'strict', image_cap: '84x84', slew: false, tier: 'standard', allow_external_cameras: false };
  for (const [name, wins] of [['a', 0], ['b', 1]] as const) {
    const cell = join(root, `paired_${name}`, 'move_plate');
    mkdirSync(join(cell, 'eval', 'v001'), { recursive: true });
    mkdirSync(join(cell, 'policies'), { recursive: true });
    writeFileSync(join(cell, 'policies', 'v001.py'), '');
    writeFileSync(join(cell, 'ledger.jsonl'), '');
    writeFileSync(join(cell, 'sandbox_config.json'), JSON.stringify(sandbox));
    writeFileSync(join(cell, 'run.json'), JSON.stringify({ runner: 'bigym-agent', task: 'move_plate', harness: name, model: 'm', effort: 'high', interface: 'strict', status: 'finished' }));
    const episodes = Array.from({ length: 2 * DISCORDANT }, (_, seed) => `{"seed":${seed},"success":${(seed < DISCORDANT) === (wins === 1)}}`).join(',');
    writeFileSync(join(cell, 'eval', 'v001', 'summary.json'), `{"version":"v001","n_episodes":${2 * DISCORDANT},"episodes":[${episodes}],"rejected":[]}`);
  }
}

const home = join(tmpdir(), `cellwatch-bench-hostile-${process.pid}`);
const runs = join(home, 'runs');
let server: ChildProcess | undefined;
try {
  hostileRoot(runs);
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);
  const started = await served(['--no-demo', runs], { XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') });
  const serving = started.server;
  server = serving;
  const url = new URL(started.url);
  const ws = new WebSocket(new URL('ws', url.href.replace(/^http/, 'ws')), { origin: url.origin });
  await new Promise((resolve) => ws.once('open', resolve));
  const replies = new Map<number, (value: { result?: unknown; error?: unknown }) => void>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
    if (message.id !== undefined) replies.get(message.id)?.(message);
  });
  let nextId = 1;
  const call = (method: string, ...args: unknown[]) =>
    new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
      const id = nextId++;
      replies.set(id, resolve);
      ws.send(JSON.stringify({ id, method, args }));
    });
  for (let i = 0; i < 600 && ((await call('listCells')).result as unknown[]).length < 5; i++) await sleep(200);
  const cells = (await call('listCells')).result as { id: string; path: string }[];
  const idOf = (part: string) => cells.find((c) => c.path.includes(part))?.id as string;

  /** Runs `action` while getInfo is called every 50 ms; the worst of those calls, the action's time, the peak RSS. */
  const during = async <T>(action: () => Promise<T>) => {
    let worst = 0;
    let peak = rssMb(serving.pid as number);
    let going = true;
    const pings = (async () => {
      while (going) {
        const start = performance.now();
        await call('getInfo');
        worst = Math.max(worst, performance.now() - start);
        peak = Math.max(peak, rssMb(serving.pid as number));
        await sleep(PING_MS);
      }
    })();
    const start = performance.now();
    const answer = await action();
    const took = performance.now() - start;
    going = false;
    await pings;
    return { worst, took, peak, answer };
  };

  const idle = await during(() => sleep(3000));
  console.log(row('idle: worst getInfo', `${idle.worst.toFixed(1)} ms`, `RSS ${idle.peak.toFixed(0)} MB`));
  const cases: [string, () => Promise<{ result?: unknown; error?: unknown }>][] = [
    ['open a row holding "usage" 40,000 times', () => call('openCell', idOf('nemo_usage'))],
    ['open a program with three links to "."', () => call('openCell', idOf('evo_links'))],
    [`open a collection with a ${BIG_ROW_MB} MB row`, () => call('openCell', idOf('nemo_big'))],
    [`its ${BIG_ROW_MB} MB row as a transcript`, () => call('transcript', idOf('nemo_big'), '1#0')],
    [`paired test, ${DISCORDANT.toLocaleString('en-US')} discordant each way`, () => call('pairedTest', idOf('paired_a'), idOf('paired_b'))],
  ];
  for (const [what, action] of cases) {
    const { worst, took, peak, answer } = await during(action);
    const said = answer.error ? ` (failed: ${JSON.stringify(answer.error).slice(0, 80)})` : '';
    console.log(row(what, `${worst.toFixed(1)} ms worst getInfo`, `took ${(took / 1000).toFixed(2)} s, RSS peak ${peak.toFixed(0)} MB${said}; goal under 100 ms and 600 MB`));
  }
  ws.close();
} finally {
  server?.kill();
  rmSync(home, { recursive: true, force: true });
}
