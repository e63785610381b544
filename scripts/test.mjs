// `npm test`: the system tools the suite needs, npm's packages, a PATH of those tools alone, then typecheck each runtime and lint
// (layer rules included) beside the build and unit tests, then e2e in Chromium. Ends with one summary line counting the tests of
// Vitest and Playwright.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { electronBinary, ensureDependencies, packageBin as bin, ROOT } from './deps.mjs';
import { ensureSystemTools, freshPath } from './system-tools.mjs';
import { failedPages } from './page-snapshots.mjs';
import { TYPECHECKS } from './typecheck.mjs';

// Electron's binary is only known after npm's install; the check runs again then for xvfb-run.
ensureSystemTools({ electron: electronBinary() !== null });
ensureDependencies();
const electron = electronBinary() !== null;
ensureSystemTools({ electron });
// The suite sees the commands a fresh machine would have: the base system and the listed tools, no more.
const fresh = freshPath(join(ROOT, 'out', 'fresh-path'), { electron });
if (fresh) process.env.PATH = [join(ROOT, 'node_modules', '.bin'), fresh].join(delimiter);
else console.log('No dpkg here: the suite runs with this PATH, which may hold tools that scripts/system-tools.mjs does not list.');
const results = join(ROOT, 'out', 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

/**
 * Checks that only read the sources: run two at a time beside the build and the unit tests, at a lower
 * priority (the unit tests, waiting on sshds and child processes, leave a fifth of the cores' time idle,
 * which these take up), each one's output printed whole once the unit tests end.
 */
const checks = [
  ...TYPECHECKS,
  ['lint', [...bin('eslint', 'bin/eslint.js'), '--max-warnings', '0', '.']],
];
const CHECKS_AT_ONCE = 2;
const stages = [
  // Built before the unit tests too: a launch test starts the built CLI's demo.
  ['build', [process.execPath, join(ROOT, 'scripts', 'build.mjs'), '--quiet']],
  ['unit', [...bin('vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile=${join(results, 'unit.json')}`]],
  // The Electron spec needs a display: a virtual one where none is set.
  ['e2e', [...(electron && !process.env.DISPLAY ? ['xvfb-run', '-a'] : []), ...bin('@playwright/test', 'cli.js'), 'test']],
];

/** Runs a stage, its output shown as it comes: its exit code (not spawnSync: this thread reads the checks' output meanwhile). */
function stage(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Runs a check at a lower priority: its exit code and output. */
function captured(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid) setPriority(child.pid, 10);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const failedStages = [];
const pending = checks.map(() => null);
let next = 0;
const worker = async () => {
  while (next < checks.length) {
    const index = next++;
    const [, [command, ...args]] = checks[index];
    pending[index] = await captured(command, args);
  }
};
const checking = Promise.all(Array.from({ length: CHECKS_AT_ONCE }, worker));
/** The checks' outputs, once they end, printed after the unit tests': e2e, which keeps both cores busy, runs alone. */
const checked = async () => {
  await checking;
  checks.forEach(([name], i) => {
    console.log(`\n=== ${name}`);
    process.stdout.write(pending[i].output);
    if (pending[i].code !== 0) failedStages.push(name);
  });
};
for (const [name, [command, ...args]] of stages) {
  if (name === 'e2e') await checked();
  console.log(`\n=== ${name}`);
  if ((await stage(command, args)) !== 0) failedStages.push(name);
  if (name === 'build' && failedStages.includes('build')) break;
}
if (failedStages.includes('build')) await checked();
if (failedStages.includes('e2e')) {
  for (const { spec, lines, cut } of failedPages(join(results, 'e2e'))) {
    console.log(`\n=== the page when ${spec} failed${cut ? ` (its first ${lines.length} lines)` : ''}`);
    console.log(lines.join('\n'));
  }
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}
const unit = readJson(join(results, 'unit.json'));
const e2e = readJson(join(results, 'e2e.json'));
const passed = (unit?.numPassedTests ?? 0) + (e2e?.stats.expected ?? 0) + (e2e?.stats.flaky ?? 0);
const failed = (unit?.numFailedTests ?? 0) + (e2e?.stats.unexpected ?? 0);
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0) + (e2e?.stats.skipped ?? 0);

const stageCount = checks.length + stages.length;
console.log(`\nstages: ${stageCount - failedStages.length} of ${stageCount} ok${failedStages.length ? `; failed: ${failedStages.join(', ')}` : ''}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failedStages.length || failed ? 1 : 0;
