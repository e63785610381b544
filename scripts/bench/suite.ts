// npm run bench:suite: `npm test` on a fresh clone of this checkout's HEAD (BENCH_RUNS times, 3), its wall
// time beside the floor of the work it does on this machine: the CPU time it keeps the machine's cores busy,
// over the cores there are. Each stage apart: installing, build, unit (the typechecks and lint run beside
// those two, and count in them), e2e, each with its wall and its CPU. A suite whose wall is near that floor
// is CPU-bound: only doing less work (or more cores) makes it faster. The CPU is the whole machine's
// (/proc/stat), as the suite's processes do not all stay in its tree (Chromium's renderers, daemons that
// fork away): run it on a machine otherwise idle, whose own background the bench measures first and prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { machineBusySeconds, median, ROOT, row } from './measure';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GOAL_S = 6 * 60;
const CORES = availableParallelism();

interface Stage {
  name: string;
  wallS: number;
  cpuS: number;
}

interface Mark {
  name: string;
  at: number;
  cpuS: number;
}

interface Run {
  wallS: number;
  cpuS: number;
  stages: Stage[];
  tests: string;
  code: number;
}

/**
 * The stage a line of the suite's output starts, as scripts/test.mjs and npm print them: the checks run
 * beside the build and the unit tests, and print once those end, before e2e's heading.
 */
function stageStartedBy(line: string): string | null {
  if (line.startsWith('Installing dependencies')) return 'install (npm ci)';
  if (/^added \d+ packages/.test(line)) return 'the PATH';
  const stage = /^=== (build|unit|e2e)$/.exec(line)?.[1];
  return stage === 'build' || stage === 'unit' ? `${stage}, checks beside it` : (stage ?? null);
}

/** The run under way: its clone (a whole install) and its suite, stopped and removed with the bench (Ctrl+C). */
let working: { clone: string; suite?: ChildProcess } | null = null;
let stopping = false;
async function stop(): Promise<void> {
  // Ctrl+C reaches this process twice (from the terminal, and relayed by npm): the second is let be.
  if (stopping) return;
  stopping = true;
  const suite = working?.suite;
  if (suite?.pid && suite.exitCode === null) {
    const gone = once(suite, 'exit');
    process.kill(-suite.pid, 'SIGTERM');
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  if (working) rmSync(working.clone, { recursive: true, force: true, maxRetries: 5 });
  process.exit(130);
}
process.on('SIGINT', stop).on('SIGTERM', stop);

/** One `npm test` (its script, scripts/test.mjs, run as npm runs it) in a fresh clone, its output in `log`. */
async function suiteRun(log: string): Promise<Run> {
  const clone = mkdtempSync(join(tmpdir(), 'cellwatch-bench-suite-'));
  working = { clone };
  try {
    await new Promise<void>((resolve, reject) => spawn('git', ['clone', '-q', ROOT, clone], { stdio: 'inherit' }).on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git clone exited ${code}`)))));
    const out = createWriteStream(log);
    const started = performance.now();
    const cpuBefore = machineBusySeconds();
    // A process group of its own, so that stopping the bench stops all of it.
    const child = spawn(process.execPath, [join(clone, 'scripts', 'test.mjs')], { cwd: clone, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    working.suite = child;
    child.stderr.pipe(out, { end: false });
    // Each stage from its first line on: when it began, and the CPU the suite had spent by then.
    const marks = [{ name: 'system tools', at: started, cpuS: 0 }];
    let tests = '';
    for await (const line of createInterface({ input: child.stdout })) {
      out.write(`${line}\n`);
      const name = stageStartedBy(line);
      if (name) marks.push({ name, at: performance.now(), cpuS: machineBusySeconds() - cpuBefore });
      if (line.startsWith('tests: ')) tests = line.slice('tests: '.length);
    }
    const code = await new Promise<number>((resolve) => (child.exitCode === null ? child.once('exit', (c) => resolve(c ?? 1)) : resolve(child.exitCode)));
    const ended = performance.now();
    const wallS = (ended - started) / 1000;
    const cpuS = machineBusySeconds() - cpuBefore;
    out.end();
    const bounds = [...marks, { name: 'end', at: ended, cpuS }];
    const stages = marks.map((mark, i) => {
      const next = bounds[i + 1] as Mark;
      return { name: mark.name, wallS: (next.at - mark.at) / 1000, cpuS: next.cpuS - mark.cpuS };
    });
    return { wallS, cpuS, stages, tests, code };
  } finally {
    rmSync(clone, { recursive: true, force: true });
    working = null;
  }
}

const minutes = (s: number) => `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
const BACKGROUND_S = 10;
const idleBefore = machineBusySeconds();
await new Promise((resolve) => setTimeout(resolve, BACKGROUND_S * 1000));
const background = (machineBusySeconds() - idleBefore) / BACKGROUND_S;
console.log(row('the machine idle, before', `${(background * 100).toFixed(1)} %`, `of a core, over ${BACKGROUND_S} s: what the figures below hold beside the suite's own`));
const logs = mkdtempSync(join(tmpdir(), 'cellwatch-bench-suite-logs-'));
const runs: Run[] = [];
for (let i = 1; i <= RUNS; i++) {
  const log = join(logs, `run-${i}.log`);
  console.log(`npm test on a fresh clone, run ${i} of ${RUNS} (its output in ${log})...`);
  const run = await suiteRun(log);
  runs.push(run);
  for (const stage of run.stages) console.log(row(`  ${stage.name}`, `${stage.wallS.toFixed(0)} s`, `CPU ${stage.cpuS.toFixed(0)} s (${(stage.cpuS / stage.wallS).toFixed(2)} cores busy)`));
  console.log(row(`  run ${i}`, minutes(run.wallS), `CPU ${run.cpuS.toFixed(0)} s; its floor here ${minutes(run.cpuS / CORES)}; ${run.tests}${run.code ? `; exit ${run.code}` : ''}`));
}
const wall = median(runs.map((r) => r.wallS));
const floor = median(runs.map((r) => r.cpuS / CORES));
console.log('');
console.log(row(`npm test, median of ${RUNS}`, minutes(wall), `goal ${minutes(GOAL_S)}`));
console.log(row(`its floor: CPU over ${CORES} cores`, minutes(floor), `the suite takes ${(wall / floor).toFixed(2)}x it; the goal is ${(GOAL_S / floor).toFixed(2)}x it`));
if (runs.some((r) => r.code)) process.exitCode = 1;
