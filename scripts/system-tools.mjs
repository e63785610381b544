// The system tools `npm test` needs beyond npm's packages. Checked before anything runs: installed with
// apt-get where this machine can (root, or passwordless sudo), else named with the command that installs them.
// Uses only Node built-ins: it runs before node_modules exists. ffmpeg and ffprobe come from npm packages.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';

// sbin folders are often off a user's PATH, and sshd lives there.
const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** An executable named `name` on PATH or in an sbin folder, or null. */
export function findTool(name, path = process.env.PATH ?? '') {
  for (const dir of [...path.split(delimiter), ...SBIN]) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** Playwright's own Chromium and its headless shell, where `npx playwright install chromium` put them. */
function playwrightChromium(env) {
  const dir = env.PLAYWRIGHT_BROWSERS_PATH || join(homedir(), process.platform === 'darwin' ? 'Library/Caches' : '.cache', 'ms-playwright');
  try {
    const names = readdirSync(dir);
    return ['chromium-', 'chromium_headless_shell-'].every((prefix) => names.some((name) => name.startsWith(prefix)));
  } catch {
    return false;
  }
}

/**
 * What the suite needs on this machine, given whether an Electron binary is installed.
 * `found` says whether it is present; `apt` is the Debian package that brings it.
 */
export function requiredTools({ env = process.env, electron = false, root = process.getuid?.() === 0, path = env.PATH ?? '' } = {}) {
  const tools = [
    { name: 'sshd', why: 'SSH tests run a private sshd', apt: 'openssh-server', found: findTool('sshd', path) !== null },
    { name: 'ssh-keygen', why: 'SSH tests make their own keys and certificates', apt: 'openssh-client', found: findTool('ssh-keygen', path) !== null },
    { name: 'ssh', why: "SSH tests check Cellwatch against OpenSSH's own client, and reach certificate hosts through it", apt: 'openssh-client', found: findTool('ssh', path) !== null },
    {
      name: 'chromium',
      why: "end-to-end tests run in Chromium: its headless shell, and the whole browser for system notifications",
      apt: 'chromium chromium-headless-shell',
      other: 'npx playwright install chromium',
      found: (existsSync('/usr/bin/chromium') && existsSync('/usr/bin/chromium-headless-shell')) || playwrightChromium(env),
    },
    { name: 'ps', why: 'process-tree tests list processes', apt: 'procps', found: findTool('ps', path) !== null },
    { name: 'inotifywait', why: 'SSH feed tests watch a host with inotifywait', apt: 'inotify-tools', found: findTool('inotifywait', path) !== null },
    { name: 'python3', why: "SSH feed tests watch a host without inotifywait with python3's inotify (ctypes); an Inspect log stored, not deflated, is written by its zipfile", apt: 'python3', found: findTool('python3', path) !== null },
    {
      name: 'kerberos',
      why: 'an SSH test logs in by GSSAPI with a ticket from a private KDC (krb5kdc, kdb5_util, kadmin.local, kinit, kdestroy)',
      apt: 'krb5-kdc krb5-admin-server krb5-user',
      found: ['krb5kdc', 'kdb5_util', 'kadmin.local', 'kinit', 'kdestroy'].every((tool) => findTool(tool, path) !== null),
    },
    {
      name: 'slurm',
      why: 'launch tests submit to a one-node Slurm cluster (slurmctld, slurmd, munged, sbatch)',
      apt: 'slurmctld slurmd slurm-client munge',
      found: ['slurmctld', 'slurmd', 'munged', 'sbatch'].every((tool) => findTool(tool, path) !== null),
    },
  ];
  // As root, the unreadable-folder test drops to an unprivileged user with setpriv.
  if (root) tools.push({ name: 'setpriv', why: 'permission tests run as an unprivileged user', apt: 'util-linux', found: findTool('setpriv', path) !== null });
  // The Electron spec needs a display: a virtual one where none is set.
  if (electron && !env.DISPLAY) tools.push({ name: 'xvfb-run', why: 'the Electron spec needs a display', apt: 'xvfb xauth', found: findTool('xvfb-run', path) !== null });
  return tools;
}

/** How missing tools can be installed here: as root, through passwordless sudo, or not at all. */
export function installPlan(missing, { root, sudo, apt }) {
  const packages = [...new Set(missing.flatMap((t) => t.apt.split(' ')))];
  const command = `apt-get install -y ${packages.join(' ')}`;
  if (apt && (root || sudo)) return { install: { packages } };
  const lines = missing.map((t) => `  ${t.name}: ${t.why}${t.other ? ` (or: ${t.other})` : ''}`);
  return {
    message: [
      `npm test needs ${missing.length === 1 ? 'a tool' : 'tools'} this machine lacks:`,
      ...lines,
      apt ? `Install ${missing.length === 1 ? 'it' : 'them'} with: sudo ${command}` : `Install ${missing.length === 1 ? 'it' : 'them'} with your package manager (Debian: ${command}).`,
    ].join('\n'),
  };
}

function succeeds(command, args) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** Installs what is missing, or prints what to install and exits non-zero before anything runs. */
export function ensureSystemTools({ electron = false } = {}) {
  const root = process.getuid?.() === 0;
  const missing = requiredTools({ electron, root }).filter((t) => !t.found);
  if (missing.length === 0) return;
  const apt = findTool('apt-get') !== null;
  const sudo = !root && findTool('sudo') !== null && succeeds('sudo', ['-n', 'true']);
  const plan = installPlan(missing, { root, sudo, apt });
  if (plan.message) {
    console.error(plan.message);
    process.exit(1);
  }
  const { packages } = plan.install;
  const [command, ...prefix] = root ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
  console.log(`Installing what the tests need: ${missing.map((t) => t.name).join(', ')} (${command === 'sudo' ? 'sudo ' : ''}apt-get install ${packages.join(' ')})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const aptGet = (args) => spawnSync(command, [...prefix, ...args], { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  if (!aptGet(['update', '-qq']) || !aptGet(['install', '-y', '-qq', ...packages])) {
    console.error(`Could not install ${packages.join(' ')} with apt-get: see its output above.`);
    process.exit(1);
  }
  const still = requiredTools({ electron, root }).filter((t) => !t.found);
  if (still.length) {
    console.error(`Still missing after apt-get: ${still.map((t) => t.name).join(', ')}`);
    process.exit(1);
  }
}

function executable(file) {
  try {
    return statSync(file).isFile() && (accessSync(file, constants.X_OK), true);
  } catch {
    return false; // listed by dpkg, gone from the disk (a diversion, a removed alternative)
  }
}

function safeList(folder) {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

const BIN_DIRS = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/;

/**
 * The installed Debian packages a fresh machine has: the base system (Essential, or Priority required)
 * and `wanted` (the list's packages), each with everything it depends on. `status` is dpkg-query's
 * `${Package}\t${Essential}\t${Priority}\t${Pre-Depends}\t${Depends}` lines for the installed packages.
 */
export function freshPackages(status, wanted) {
  const installed = new Map();
  for (const line of status.split('\n')) {
    const [name, essential, priority, ...depends] = line.split('\t');
    if (!name) continue;
    // "a (>= 1) | b, c:any": each alternative that is installed counts.
    const needs = depends.join(',').split(/[,|]/).map((d) => d.trim().split(/[\s:(]/)[0]).filter(Boolean);
    installed.set(name.split(':')[0], { base: essential === 'yes' || priority === 'required', needs });
  }
  const out = new Set();
  const add = (name) => {
    if (out.has(name) || !installed.has(name)) return;
    out.add(name);
    installed.get(name).needs.forEach(add);
  };
  for (const [name, { base }] of installed) if (base) add(name);
  wanted.forEach(add);
  return [...out].sort();
}

/**
 * A folder of links to the commands of `freshPackages` alone (and Node's own node, npm, npx): the PATH the suite runs with, so
 * that a tool installed here by hand and missing from the list fails here as it would on a fresh machine.
 * Null where dpkg is not there to say which package brings what.
 */
export function freshPath(dir, { electron = false, root = process.getuid?.() === 0 } = {}) {
  if (findTool('dpkg-query') === null) return null;
  const query = (args) => spawnSync('dpkg-query', args, { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout ?? '';
  const status = query(['-W', '-f', '${db:Status-Status}\t${Package}\t${Essential}\t${Priority}\t${Pre-Depends}\t${Depends}\n'])
    .split('\n')
    .filter((line) => line.startsWith('installed\t'))
    .map((line) => line.slice('installed\t'.length))
    .join('\n');
  const wanted = requiredTools({ electron, root }).flatMap((t) => t.apt.split(' '));
  const files = query(['-L', ...freshPackages(status, wanted)]).split('\n');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const linked = new Set();
  const link = (target, name = basename(target)) => {
    if (linked.has(name)) return;
    linked.add(name);
    symlinkSync(target, join(dir, name));
  };
  // Node and the npm beside it: whoever runs `npm test` has them, whatever installed them.
  for (const name of ['node', 'npm', 'npx']) {
    const file = name === 'node' ? process.execPath : join(dirname(process.execPath), name);
    if (executable(file)) link(file, name);
  }
  const commands = new Set();
  for (const file of files) {
    if (!BIN_DIRS.test(file) || !executable(file)) continue;
    link(file);
    commands.add(realpathSync(file));
  }
  // Names that no package lists: alternatives (awk, which) and links made by maintainer scripts.
  for (const folder of ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin']) {
    for (const name of safeList(folder)) {
      const file = join(folder, name);
      if (executable(file) && commands.has(realpathSync(file))) link(file);
    }
  }
  return dir;
}
