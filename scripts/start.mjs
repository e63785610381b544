// `npm start`: install when needed, build, open the window; serve mode in a browser where Electron's binary is absent.
import { join } from 'node:path';
import { electronBinary, ensureDependencies, ROOT, run } from './deps.mjs';

ensureDependencies();
if (run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--quiet', '--if-changed']) !== 0) process.exit(1);

const args = process.argv.slice(2);
const electron = electronBinary();
if (electron) {
  process.exitCode = run(electron, [ROOT, ...args]);
} else {
  console.log('No Electron binary here (it was installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1): serving the app to a browser instead.');
  process.exitCode = run(process.execPath, [join(ROOT, 'out', 'cli.mjs'), 'serve', '--open', ...args]);
}
