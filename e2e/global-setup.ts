// Each Playwright run records the process groups its specs start in a folder of its own (see processes.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GROUPS_ENV } from './processes';

export default function globalSetup(): void {
  // Workers inherit the runner's environment.
  process.env[GROUPS_ENV] = mkdtempSync(join(tmpdir(), 'cellwatch-e2e-groups-'));
}
