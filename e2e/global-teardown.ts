// Kills every process group a spec started and no spec stopped: a worker that died mid-hook leaves them here.
import { readdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEMO_ENV, GROUPS_ENV, killGroup } from './processes';

export default function globalTeardown(): void {
  const demo = process.env[DEMO_ENV];
  if (demo) rmSync(dirname(demo), { recursive: true, force: true });
  const folder = process.env[GROUPS_ENV];
  if (!folder) return;
  for (const name of readdirSync(folder)) killGroup(Number(name));
  rmSync(folder, { recursive: true, force: true });
}
