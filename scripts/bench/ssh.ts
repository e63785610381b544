// npm run bench:ssh: remote cells over a private sshd on 127.0.0.1, measured in the app.
// 1. Append-to-arrival: `cellwatch tail --json testhost:CELL` beside `cellwatch tail --json CELL` on the
//    same growing file (goal: p50 under 20 ms, p95 within 50 ms of local), and through a second sshd
//    whose PATH lacks inotifywait (the feed is python3's inotify then).
// 2. Bytes: a core (as `serve` runs it) watching 220 remote cells, 20 of them open in a window with their
//    trajectories growing for BENCH_SECONDS (60), 200 idle; every byte its connection receives (feed,
//    reads, GPU stream) against the bytes appended (goal: at most 1.05x plus the idle cost, printed).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, writeTree } from '../../runners/testing';
import { createCore } from '../../main/core';
import { shellNvidiaSmi } from '../../main/gpu/fake/shell';
import { binWithout, startSshd } from '../../main/ssh/testing';
import { ROOT } from './measure';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const LATENCY_SECONDS = Math.min(SECONDS, 20);
const IDLE_SECONDS = 20;
const GROWING = 20;
const IDLE_CELLS = 200;
const LINES_PER_SECOND = 10;

const now = () => performance.timeOrigin + performance.now();
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Text that compresses about as a trajectory's tool output does: words, not one letter repeated. */
const WORDS = ['reward', 'pole', 'angle', 'cart', 'velocity', 'step', 'policy', 'episode', 'left', 'right', 'obs', 'done', 'seed', '0.0421', '-1.37', '12', 'true'];
const words = (seed: number, n: number) => Array.from({ length: n }, (_, k) => WORDS[(seed * 31 + k * 17 + ((seed * k) % 7)) % WORDS.length]).join(' ');
const lineOf = (seq: number, i = 0) => jsonl([{ seq, t: Date.now() / 1000, ev: 'tool_call', name: 'step_discrete', args: { action: 'forward' }, output: words(seq + i * 1000, 12 + ((seq * 7 + i) % 10)) }]);

const sshd = await startSshd({ trusted: true });
const noInotify = binWithout(['inotifywait']);
const sshdPython = await startSshd({ trusted: true, env: { PATH: noInotify.path } });
const runs = join(sshd.dir, 'runs');
const cellDir = (i: number) => join(runs, `std_sdk_m_c${String(i).padStart(3, '0')}_default`);
const trajectory = (i: number) => join(cellDir(i), 'episodes', '0000', 'trajectory.jsonl');
for (let i = 0; i < GROWING + IDLE_CELLS; i++) {
  writeTree(cellDir(i), {
    'run.json': { runner: 'coding-agent', run: `std_sdk_m_c${i}_default`, protocol: { episodes: [0, 1, 2] } },
    'summary.json': { planned: [0, 1, 2], episodes: [] },
    'episodes/0000/trajectory.jsonl': lineOf(0),
  });
}

// 1. Latency, in the CLI, remote beside local.
const env = { ...process.env, HOME: sshd.home };
const written = new Map<number, number>();
const arrived = { local: [] as number[], remote: [] as number[], python: [] as number[] };
const tail = (address: string, kind: keyof typeof arrived): ChildProcess => {
  const home = kind === 'python' ? { ...env, HOME: sshdPython.home } : env;
  const child = spawn(process.execPath, [join(ROOT, 'out', 'cli.mjs'), 'tail', '--json', '--from-end', address], { env: home, stdio: ['ignore', 'pipe', 'inherit'] });
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const at = now();
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() as string;
    for (const line of lines) {
      const seq = (JSON.parse(line) as { seq: number }).seq;
      if (written.has(seq)) arrived[kind].push(at - (written.get(seq) as number));
    }
  });
  return child;
};
const tails = [tail(cellDir(0), 'local'), tail(`testhost:${cellDir(0)}`, 'remote'), tail(`testhost:${cellDir(0)}`, 'python')];
await sleep(3000);
console.log(`append-to-arrival: ${LINES_PER_SECOND} lines/s for ${LATENCY_SECONDS} s, cellwatch tail --json on the remote cell and on the same cell locally...`);
for (let seq = 1; seq <= LATENCY_SECONDS * LINES_PER_SECOND; seq++) {
  written.set(seq, now());
  appendFileSync(trajectory(0), lineOf(seq));
  await sleep(1000 / LINES_PER_SECOND);
}
await sleep(1000);
tails.forEach((t) => t.kill());

// 2. Bytes, in the core: compressed as Cellwatch connects by default, and with `Compression no`.
async function bytesOver(compression: boolean) {
  writeFileSync(join(sshd.home, '.ssh', 'config'), `${config}${compression ? '' : '  Compression no\n'}`);
  console.log(`bytes: ${GROWING + IDLE_CELLS} remote cells, ${GROWING} open and growing (${LINES_PER_SECOND} lines/s each) for ${SECONDS} s, ${compression ? 'compressed' : 'Compression no'}...`);
  process.env.HOME = sshd.home;
  let received = 0;
  const core = await createCore({
    configDir: join(sshd.dir, `config-${compression}`),
    dataDir: join(sshd.dir, `data-${compression}`),
    transport: 'serve',
    commandLineRoots: [`testhost:${runs}`],
    nvidiaSmi: false,
    remoteNvidiaSmi: shellNvidiaSmi(sshd.dir, join(ROOT, 'main', 'gpu', 'fixtures', 'noheader-nounits', 'linux-x86_64__nvidia-h200__590.48.01__load.csv')),
    hosts: { onBytesReceived: (_alias, bytes) => (received += bytes) },
  });
  while ((await core.listCells()).length < GROWING + IDLE_CELLS) await sleep(200);
  let delivered = 0;
  core.events.on('cellChanged', (delta) => (delivered += delta.events?.length ?? 0));
  for (let i = 0; i < GROWING; i++) {
    await core.openCell(`testhost:${cellDir(i)}`);
    await core.openStream(`testhost:${cellDir(i)}`, '0');
  }
  await sleep(5000);
  const idleStart = received;
  await sleep(IDLE_SECONDS * 1000);
  const idlePerSecond = (received - idleStart) / IDLE_SECONDS;
  const start = received;
  let appended = 0;
  let lines = 0;
  const started = Date.now();
  for (let seq = 1; Date.now() - started < SECONDS * 1000; seq++) {
    for (let i = 0; i < GROWING; i++) {
      const line = lineOf(nextSeq++, i);
      appendFileSync(trajectory(i), line);
      appended += Buffer.byteLength(line);
      lines++;
    }
    await sleep(1000 / LINES_PER_SECOND);
  }
  await sleep(1500);
  const elapsed = (Date.now() - started) / 1000;
  await core.close();
  return { compression, idlePerSecond, appended, lines, delivered, bytes: received - start, elapsed };
}

const config = readFileSync(join(sshd.home, '.ssh', 'config'), 'utf8');
let nextSeq = 10_000;
const results = [await bytesOver(true), await bytesOver(false)];
await Promise.all([sshd.stop(), sshdPython.stop()]);
noInotify.remove();

console.log('');
for (const kind of ['local', 'remote', 'python'] as const) {
  const d = arrived[kind];
  console.log(`${(kind === 'python' ? 'remote, no inotifywait (python3 feed)' : kind).padEnd(6)} append-to-arrival  ${String(d.length).padStart(5)} lines  p50 ${percentile(d, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(d, 95).toFixed(1).padStart(6)} ms${kind === 'local' ? '  (baseline)' : '  (goal: p50 < 20 ms, p95 within 50 ms of local)'}`);
}
for (const r of results) {
  const fixed = r.idlePerSecond * r.elapsed;
  const how = r.compression ? 'compressed    ' : 'Compression no';
  console.log(`${how} idle cost ${r.idlePerSecond.toFixed(0).padStart(5)} B/s for the host (feed, keepalives, GPU stream at 1 Hz), ${IDLE_CELLS + GROWING} cells, nothing changing`);
  console.log(
    `${how} appended ${(r.appended / 1024).toFixed(0).padStart(5)} KiB (${r.lines} lines, ${r.delivered} delivered), received ${(r.bytes / 1024).toFixed(0).padStart(5)} KiB: ${(r.bytes / r.appended).toFixed(2)}x, less the idle cost ${((r.bytes - fixed) / r.appended).toFixed(2)}x (goal: at most 1.05x plus the idle cost)`,
  );
}
