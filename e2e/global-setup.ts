// Each Playwright run records the process groups its specs start in a folder of its own (see processes.ts).
// The instant demo is written here once for the specs that serve it, which copy it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, DEMO_ENV, GROUPS_ENV } from './processes';

/** The folder where this run's specs record the process groups they start (workers inherit the runner's environment). */
export function recordGroups(): void {
  process.env[GROUPS_ENV] = mkdtempSync(join(tmpdir(), 'cellwatch-e2e-groups-'));
}

export default function globalSetup(): void {
  recordGroups();
  const demo = join(mkdtempSync(join(tmpdir(), 'cellwatch-e2e-demo-')), 'runs');
  const home = mkdtempSync(join(tmpdir(), 'cellwatch-e2e-demo-home-'));
  execFileSync(process.execPath, [CLI, 'demo', demo, '--instant'], { env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share') } });
  rmSync(home, { recursive: true, force: true });
  process.env[DEMO_ENV] = demo;
}
