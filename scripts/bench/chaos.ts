// npm run bench:chaos: a live cell on an SSH host (a private sshd) followed by `cellwatch serve`, while this
// script cuts the connection 100 times, truncates and rotates the log 10 times, and writes 50 kinds of bad
// input into other cells. Prints lines delivered, lost and doubled, whether the server crashed, and its RSS
// at start and end. Baseline: the same cell followed locally by `tail -F`, which sees every line once.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startSshd } from '../../main/ssh/testing';
import { served } from './long-tasks';
import { measure, ROOT, row } from './measure';

const CUTS = 100;
const ROTATIONS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Fifty kinds of bad input a run directory can hold. */
function badInputs(root: string): void {
  const bad: Record<string, string | Buffer> = {
    'truncated/run.json': '{"runner": "coding-agent", "run": "x',
    'binary/run.json': Buffer.from([0, 255, 254, 137, 80, 78, 71]),
    'empty/run.json': '',
    'array/run.json': '[1, 2, 3]',
    'null/run.json': 'null',
    'wrong-types/run.json': '{"runner": "coding-agent", "run": 5, "protocol": "x", "cell": []}',
    'unknown-runner/run.json': '{"runner": "nope"}',
    'escape/run.json': '{"runner": "coding-agent", "run": "\\u001b]2;owned\\u0007"}',
    'huge-line/run.json': `{"runner": "coding-agent", "run": "${'a'.repeat(2 << 20)}"}`,
    'bad-summary/run.json': '{"runner": "coding-agent"}',
    'bad-summary/summary.json': '{"episodes": {"0": {"status": 5}}, "planned": "all"}',
    'bigym-bad/run.json': '{"runner": "bigym-agent", "budget_steps": "lots"}',
    'bigym-bad/ledger.jsonl': '{"seed": 1}\n{not json\n\u0000\u0001\n',
    'bigym-bad/eval/v001/summary.json': '{"episodes": "none"}',
    'evo-bad/run.json': '{"runner": "evopolicygym", "config": 3}',
    'evo-bad/events.jsonl': '{"type": "submission_completed", "charged": "x"}\n]\n',
    'harbor-bad/config.json': '{"job_name": "j"}',
    'harbor-bad/result.json': '{"stats": []}',
    'harbor-bad/t__1/config.json': '{}',
    'harbor-bad/t__1/result.json': '{"verifier_result": "yes"}',
  };
  let kinds = 0;
  for (const [file, contents] of Object.entries(bad)) {
    mkdirSync(join(root, 'bad', file, '..'), { recursive: true });
    writeFileSync(join(root, 'bad', file), contents);
    kinds++;
  }
  for (let i = 0; kinds < 50; i++, kinds++) {
    const cell = join(root, 'bad', `shape-${i}`);
    mkdirSync(join(cell, 'episodes', '0000'), { recursive: true });
    writeFileSync(join(cell, 'run.json'), '{"runner": "coding-agent"}');
    const trajectory = join(cell, 'episodes', '0000', 'trajectory.jsonl');
    const kind = i % 6;
    if (kind === 0) execFileSync('mkfifo', [trajectory]);
    else if (kind === 1) symlinkSync(cell, join(cell, 'episodes', 'loop'));
    else if (kind === 2) symlinkSync('/etc/passwd', join(cell, 'episodes', '0000', 'frames.png'));
    else if (kind === 3) mkdirSync(join(cell, 'summary.json'));
    else if (kind === 4) writeFileSync(trajectory, Buffer.alloc(64 * 1024, 0));
    else writeFileSync(trajectory, `${'{"seq": 0, "ev": "x"}\n'.repeat(3)}{"seq": 3, "ev": "half`);
  }
}

const home = join(tmpdir(), `cellwatch-bench-chaos-${process.pid}`);
const children: ChildProcess[] = [];
const sshd = await startSshd({ trusted: true });
try {
  const runs = join(home, 'runs');
  const cell = join(runs, 'std_sdk_chaos_bare_default');
  const trajectory = join(cell, 'episodes', '0000', 'trajectory.jsonl');
  mkdirSync(join(cell, 'episodes', '0000'), { recursive: true });
  writeFileSync(join(cell, 'run.json'), JSON.stringify({ runner: 'coding-agent', run: 'std_sdk_chaos_bare_default', protocol: { episodes: [0] } }));
  writeFileSync(trajectory, '');
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);

  const env = { ...process.env, HOME: sshd.home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), CELLWATCH_REMOTE_NVIDIA_SMI: '/bin/false' };
  const started = await served(['--no-demo', `testhost:${runs}`], env);
  const server = started.server;
  children.push(server);
  let crashed = false;
  server.once('exit', () => (crashed = true));
  const url = new URL(started.url);
  const ws = new WebSocket(new URL('ws', url.href.replace(/^http/, 'ws')), { origin: url.origin });
  await new Promise((resolve) => ws.once('open', resolve));
  const delivered: number[] = [];
  const replies = new Map<number, (value: unknown) => void>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; event?: string; payload?: { events?: { fields: { n?: number } }[] } };
    if (message.id !== undefined) replies.get(message.id)?.(message.result);
    if (message.event === 'cellChanged') for (const e of message.payload?.events ?? []) if (typeof e.fields.n === 'number') delivered.push(e.fields.n);
  });
  let nextId = 1;
  const call = (method: string, ...args: unknown[]) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      replies.set(id, resolve);
      ws.send(JSON.stringify({ id, method, args }));
    });
  const id = `testhost:${cell}`;
  while (!((await call('listCells')) as { id: string }[]).some((c) => c.id === id)) await sleep(200);
  await call('openCell', id);
  await call('openStream', id, '0');
  const rssStart = rssMb(server.pid as number);

  console.log(`Writing lines for ${CUTS} connection cuts and ${ROTATIONS} rotations, with 50 kinds of bad input beside...`);
  badInputs(runs);
  let n = 0;
  const written: number[] = [];
  // CHAOS_DEBUG=1: every 5 s, what was written, what arrived, and the host's state.
  const debug = process.env.CHAOS_DEBUG
    ? setInterval(() => void call('listHosts').then((hosts) => console.log(`written ${written.length}, delivered ${new Set(delivered).size}, ${JSON.stringify((hosts as { state: string }[]).map((h) => h.state))}`)), 5000)
    : undefined;
  const write = (count: number) => {
    for (let i = 0; i < count; i++, n++) {
      appendFileSync(trajectory, `${JSON.stringify({ seq: n, ev: 'tool_call', n })}\n`);
      written.push(n);
    }
  };
  for (let cut = 0; cut < CUTS; cut++) {
    write(5);
    sshd.cutSessions();
    write(5);
    await sleep(250);
    if (cut % (CUTS / ROTATIONS) === CUTS / ROTATIONS - 1) {
      // Wait for the lines so far (the host may be in its reconnect backoff), then rotate or truncate the log as a runner would.
      for (let wait = 0; wait < 600 && new Set(delivered).size < written.length; wait++) await sleep(100);
      if (cut % 2) {
        renameSync(trajectory, `${trajectory}.1`);
        writeFileSync(trajectory, '');
      } else truncateSync(trajectory, 0);
    }
  }
  for (let wait = 0; wait < 900 && new Set(delivered).size < written.length; wait++) await sleep(100);
  clearInterval(debug);
  const rssEnd = rssMb(server.pid as number);
  ws.close();

  const seen = new Set(delivered);
  const lost = written.filter((w) => !seen.has(w)).length;
  const doubled = delivered.length - seen.size;
  console.log('');
  console.log(row('tail -F on the file', `${written.length} lines`, 'baseline: every line once, no connection to lose'));
  console.log(row('serve over SSH: delivered', `${seen.size} lines`, `of ${written.length} written`));
  console.log(row('lost / doubled', `${lost} / ${doubled}`, 'goal: 0 / 0'));
  console.log(row('server crashes', crashed ? '1' : '0', 'goal: 0'));
  console.log(row('server RSS start / end', `${rssStart.toFixed(0)} / ${rssEnd.toFixed(0)} MB`, `${(((rssEnd - rssStart) / rssStart) * 100).toFixed(0)} % growth (goal: under 20 %)`));
} finally {
  children.forEach((child) => child.kill());
  await sshd.stop();
  rmSync(home, { recursive: true, force: true });
}
