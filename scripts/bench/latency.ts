// npm run bench:latency: append events to the trajectory of a long run's live episode (thousands ended
// before it) at a steady rate, and frames to its folder of thousands, as a recording episode does; for
// each event, the time from its write to its arrival in `tail -F`, in `cellwatch tail --json`, at the
// page's socket and on its screen (serve mode, Chromium); and the CPU serve and `cellwatch tail` take
// meanwhile, beside theirs over as long before, nothing written.
import { chromium } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { served } from './long-tasks';
import { cpuSeconds, measure, ROOT } from './measure';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const FIRST_SEQ = 1;
/** Episodes ended before the live one, each with its trajectory. */
const ENDED = Number(process.env.BENCH_EPISODES ?? 3000);
/** Frames already in the live episode's folder, and one more written every this many events. */
const FRAMES = Number(process.env.BENCH_FRAMES ?? 5000);
const FRAME_EVERY = 2;
/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const now = () => performance.timeOrigin + performance.now();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function follow(child: ChildProcess, onLine: (line: string) => void): void {
  createInterface({ input: child.stdout! }).on('line', onLine);
}

const home = mkdtempSync(join(tmpdir(), 'cellwatch-bench-latency-'));
const runs = join(home, 'runs');
const cell = join(runs, 'std_sdk_bench_bare_default');
const episode = (k: number) => join(cell, 'episodes', String(k).padStart(4, '0'));
const trajectory = join(episode(ENDED), 'trajectory.jsonl');
const frames = join(episode(ENDED), 'frames');
const frameFile = (k: number) => join(frames, `${String(k).padStart(6, '0')}.png`);
const children: ChildProcess[] = [];
const written = new Map<number, number>();
const arrivals: Record<string, Map<number, number>> = { 'tail -F': new Map(), 'cellwatch tail --json': new Map(), 'page: socket': new Map(), page: new Map() };

try {
  const ended: Record<string, unknown> = {};
  for (let k = 0; k < ENDED; k++) {
    mkdirSync(episode(k), { recursive: true });
    writeFileSync(join(episode(k), 'trajectory.jsonl'), `${JSON.stringify({ seq: 0, ev: 'episode_start', episode: k })}\n${JSON.stringify({ seq: 1, ev: 'episode_end', episode: k })}\n`);
    ended[k] = { status: 'evaluated', success: k % 2 === 0 };
  }
  mkdirSync(frames, { recursive: true });
  for (let k = 0; k < FRAMES; k++) writeFileSync(frameFile(k), PNG);
  const planned = Array.from({ length: ENDED + 1 }, (_, k) => k);
  writeFileSync(join(cell, 'run.json'), JSON.stringify({ runner: 'coding-agent', run: 'std_sdk_bench_bare_default', protocol: { episodes: planned } }));
  writeFileSync(join(cell, 'summary.json'), JSON.stringify({ run: 'std_sdk_bench_bare_default', finished: false, planned, episodes: ended }));
  writeFileSync(trajectory, `${JSON.stringify({ seq: 0, t: Date.now() / 1000, ev: 'episode_start', episode: ENDED })}\n`);
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);
  const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };

  const tailF = spawn('tail', ['-n', '0', '-F', trajectory], { stdio: ['ignore', 'pipe', 'ignore'] });
  follow(tailF, (line) => {
    const at = now();
    const seq = (JSON.parse(line) as { seq: number }).seq;
    arrivals['tail -F']!.set(seq, at);
  });
  const ours = spawn(process.execPath, [join(ROOT, 'out/cli.mjs'), 'tail', '--json', '--from-end', cell], { stdio: ['ignore', 'pipe', 'inherit'], env });
  follow(ours, (line) => {
    const at = now();
    arrivals['cellwatch tail --json']!.set((JSON.parse(line) as { seq: number }).seq, at);
  });
  const { url, server } = await served([runs], env);
  children.push(tailF, ours, server);

  const browser = await chromium.launch({
    executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const page = await browser.newPage();
  // The events each message of the page's socket carries (what the server sent, apart from the drawing), and
  // when each reaches the screen: timed in the page on the same wall clock as here, and collected once at the
  // end, so that the measuring adds no call out of the page to each event's path.
  await page.addInitScript(() => {
    const seen = { received: [] as [number, number][], arrived: [] as [number, number][] };
    (window as unknown as { latency: typeof seen }).latency = seen;
    const Socket = window.WebSocket;
    window.WebSocket = class extends Socket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.addEventListener('message', (message: MessageEvent) => {
          if (typeof message.data !== 'string') return;
          const at = performance.timeOrigin + performance.now();
          for (const m of message.data.matchAll(/"seq":(\d+)/g)) seen.received.push([Number(m[1]), at]);
        });
      }
    };
  });
  await page.goto(url);
  await page.getByRole('button', { name: 'std_sdk_bench_bare_default' }).click();
  await page.getByRole('tab', { name: 'Episodes' }).click();
  await page.getByRole('log', { name: 'Events' }).waitFor();
  await page.evaluate(() => {
    const log = document.querySelector('[role="log"]') as HTMLElement;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          const seq = Number((node as HTMLElement).querySelector?.('.event-seq')?.textContent);
          if (seq) (window as unknown as { latency: { arrived: [number, number][] } }).latency.arrived.push([seq, performance.timeOrigin + performance.now()]);
        }
      }
    }).observe(log, { childList: true, subtree: true });
  });
  await new Promise((r) => setTimeout(r, 1000));

  // The CPU seconds of serve and of `cellwatch tail` (every thread of each) over a window, as % of a core.
  const cpuOf = async (during: () => Promise<void>) => {
    const before = [cpuSeconds(server.pid as number), cpuSeconds(ours.pid as number)];
    const started = performance.now();
    await during();
    const seconds = (performance.now() - started) / 1000;
    return [cpuSeconds(server.pid as number), cpuSeconds(ours.pid as number)].map((after, k) => ((after - (before[k] as number)) / seconds) * 100) as [number, number];
  };
  const quiet = await cpuOf(() => new Promise((r) => setTimeout(r, EVENTS * (1000 / RATE))));

  console.log(`Appending ${EVENTS} events at ${RATE}/s to ${trajectory} (${ENDED.toLocaleString('en-US')} episodes ended before it), and a frame every ${FRAME_EVERY} events to its ${FRAMES.toLocaleString('en-US')}...`);
  const busy = await cpuOf(async () => {
    for (let seq = FIRST_SEQ; seq < FIRST_SEQ + EVENTS; seq++) {
      written.set(seq, now());
      appendFileSync(trajectory, `${JSON.stringify({ seq, t: Date.now() / 1000, ev: 'tool_call', name: 'step_discrete', args: { action: 'forward' } })}\n`);
      if (seq % FRAME_EVERY === 0) writeFileSync(frameFile(FRAMES + seq), PNG);
      await new Promise((r) => setTimeout(r, 1000 / RATE));
    }
  });
  await new Promise((r) => setTimeout(r, 1500));
  const seen = await page.evaluate(() => (window as unknown as { latency: { received: [number, number][]; arrived: [number, number][] } }).latency);
  // The first time each event is seen counts.
  for (const [seq, at] of seen.received) if (!arrivals['page: socket']!.has(seq)) arrivals['page: socket']!.set(seq, at);
  for (const [seq, at] of seen.arrived) if (!arrivals.page!.has(seq)) arrivals.page!.set(seq, at);
  await browser.close();

  console.log('');
  console.log(`${'reader'.padEnd(24)} ${'arrived'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
  const p95: Record<string, number> = {};
  for (const [reader, seen] of Object.entries(arrivals)) {
    const delays = [...written].flatMap(([seq, at]) => (seen.has(seq) ? [(seen.get(seq) as number) - at] : []));
    p95[reader] = percentile(delays, 95);
    console.log(`${reader.padEnd(24)} ${`${delays.length}/${EVENTS}`.padStart(8)} ${percentile(delays, 50).toFixed(1).padStart(8)} ${p95[reader]!.toFixed(1).padStart(8)} ${percentile(delays, 99).toFixed(1).padStart(8)}`);
  }
  const baseline = p95['tail -F'] as number;
  console.log(`\np95 beyond tail -F: cellwatch tail ${(p95['cellwatch tail --json']! - baseline).toFixed(1)} ms, page ${(p95.page! - baseline).toFixed(1)} ms (goal: within one frame, 17 ms)`);
  console.log(`CPU while written to: serve ${busy[0].toFixed(1)} % of a core, cellwatch tail ${busy[1].toFixed(1)} %; the same time before, nothing written: ${quiet[0].toFixed(1)} %, ${quiet[1].toFixed(1)} %`);
} finally {
  // The server writes its index cache into the folder until it has gone: removing it sooner fails (ENOTEMPTY).
  await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve(null) : (c.once('exit', resolve), c.kill())))));
  rmSync(home, { recursive: true, force: true, maxRetries: 5 });
}
