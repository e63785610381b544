import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes';

/** Pids of the processes whose environment carries `mark`. */
function marked(mark: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`CELLWATCH_LEAK_MARK=${mark}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

test.skip(process.platform !== 'linux', 'reads process environments from /proc');

test('no process a spec started outlives a run whose specs fail', async () => {
  const mark = `leak-${process.pid}-${Date.now()}`;
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', join(ROOT, 'e2e', 'failing', 'playwright.config.ts')], {
    cwd: ROOT,
    env: { ...process.env, CELLWATCH_LEAK_MARK: mark },
    encoding: 'utf8',
    timeout: 100_000,
  });
  const output = run.stdout + run.stderr;
  expect(run.status, output).toBe(1);
  expect(output).toContain('a failure on purpose');
  expect(output).toMatch(/"beforeAll" hook timeout of 2000ms exceeded/);
  // The process tree after the run: nothing it started is left.
  expect(marked(mark)).toEqual([]);
});
