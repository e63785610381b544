// npm run screenshots: the README's screenshots, taken by the e2e spec of the four journeys, written into
// assets/screenshots/ (a normal e2e run writes them under out/ instead).
import { spawnSync } from 'node:child_process';

const build = spawnSync(process.execPath, ['scripts/build.mjs', '--quiet'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync('npx', ['playwright', 'test', 'e2e/screenshots.spec.ts'], { stdio: 'inherit', env: { ...process.env, CELLWATCH_SCREENSHOTS: 'assets/screenshots' } });
process.exit(run.status ?? 1);
