import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../runners/testing';
import { installed, ROOT } from './deps.mjs';
import { findTool, freshPackages, freshPath, installPlan, requiredTools } from './system-tools.mjs';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

describe('the tools npm test needs', () => {
  it('finds a tool on PATH, and only an executable one', () => {
    const bin = join(tmp.path, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'cellwatch-probe'), '#!/bin/sh\n');
    expect(findTool('cellwatch-probe', bin)).toBeNull();
    chmodSync(join(bin, 'cellwatch-probe'), 0o755);
    expect(findTool('cellwatch-probe', bin)).toBe(join(bin, 'cellwatch-probe'));
  });

  it('asks for xvfb-run only where an Electron binary exists and no display is set, setpriv only as root', () => {
    const names = (options: Parameters<typeof requiredTools>[0]) => requiredTools(options).map((t) => t.name);
    expect(names({ env: {}, electron: false, root: false })).toEqual(['sshd', 'ssh-keygen', 'ssh', 'chromium', 'ps', 'inotifywait', 'python3', 'kerberos', 'slurm']);
    expect(names({ env: {}, electron: true, root: true })).toEqual(['sshd', 'ssh-keygen', 'ssh', 'chromium', 'ps', 'inotifywait', 'python3', 'kerberos', 'slurm', 'setpriv', 'xvfb-run']);
    expect(names({ env: { DISPLAY: ':0' }, electron: true, root: false })).not.toContain('xvfb-run');
  });

  it('installs as root or with passwordless sudo; otherwise names each missing tool and the command', () => {
    const missing = requiredTools({ env: {}, electron: true, root: false }).filter((t) => ['sshd', 'chromium', 'xvfb-run'].includes(t.name));
    expect(installPlan(missing, { root: true, sudo: false, apt: true })).toEqual({ install: { packages: ['openssh-server', 'chromium', 'chromium-headless-shell', 'xvfb', 'xauth'] } });
    expect(installPlan(missing, { root: false, sudo: true, apt: true })).toEqual({ install: { packages: ['openssh-server', 'chromium', 'chromium-headless-shell', 'xvfb', 'xauth'] } });
    const { message } = installPlan(missing, { root: false, sudo: false, apt: true });
    expect(message).toContain('sshd: SSH tests run a private sshd');
    expect(message).toContain('chromium: end-to-end tests run in Chromium: its headless shell, and the whole browser for system notifications (or: npx playwright install chromium)');
    expect(message).toContain('sudo apt-get install -y openssh-server chromium chromium-headless-shell xvfb xauth');
    expect(installPlan(missing, { root: true, sudo: false, apt: false }).message).toContain('with your package manager');
  });

  it('npm test as a user who cannot install: names what is missing and exits before anything runs', () => {
    const bin = join(tmp.path, 'empty-bin');
    mkdirSync(bin);
    chmodSync(tmp.path, 0o755);
    const env = { PATH: bin, HOME: tmp.path, PLAYWRIGHT_BROWSERS_PATH: bin };
    // ps and ssh-keygen live in /usr/bin, off this PATH: if they were found, the suite itself would start.
    expect(requiredTools({ env, root: false }).filter((t) => !t.found).map((t) => t.name)).toEqual(expect.arrayContaining(['ssh-keygen', 'ps']));
    // A copy of the scripts (nobody may not read the checkout); as root, drop to nobody, who can neither apt-get nor sudo.
    mkdirSync(join(tmp.path, 'scripts'));
    for (const file of ['test.mjs', 'deps.mjs', 'system-tools.mjs', 'page-snapshots.mjs', 'typecheck.mjs']) copyFileSync(join(ROOT, 'scripts', file), join(tmp.path, 'scripts', file));
    const asUser = process.getuid?.() === 0 ? [findTool('setpriv') ?? 'setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'] : [];
    const [command, ...args] = [...asUser, process.execPath, join(tmp.path, 'scripts', 'test.mjs')];
    const run = spawnSync(command as string, args, { cwd: tmp.path, encoding: 'utf8', env, timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('npm test needs tools this machine lacks');
    expect(run.stderr).toContain('ps: process-tree tests list processes');
    expect(run.stderr).toContain('ssh-keygen: SSH tests make their own keys');
    expect(run.stdout).not.toContain('=== typecheck');
    expect(run.stdout).not.toContain('Installing');
  });
});

describe('the PATH the suite runs with', () => {
  it('holds the base system and the wanted packages with what they depend on, nothing else', () => {
    const status = [
      'coreutils\tyes\trequired\t\tlibc6 (>= 2.34)',
      'libc6\t\trequired\t\t',
      'procps\t\timportant\t\tlibprocps8 (>= 2:3.3.16), init-system-helpers | systemd:any',
      'libprocps8\t\toptional\t\t',
      'init-system-helpers\t\toptional\t\t',
      'python3\t\toptional\t\tlibpython3',
      'libpython3\t\toptional\t\t',
    ].join('\n');
    expect(freshPackages(status, ['procps', 'not-installed'])).toEqual(['coreutils', 'init-system-helpers', 'libc6', 'libprocps8', 'procps']);
  });

  // git is on every machine this suite is written on, and on no list: a fresh Debian lacks it.
  const git = findTool('git', '/usr/bin');
  it.runIf(findTool('dpkg-query') && git)('links the listed tools, the base system and Node\'s own, not a tool installed by hand', () => {
    const dir = freshPath(join(tmp.path, 'fresh'));
    expect(dir).not.toBeNull();
    for (const tool of ['sh', 'awk', 'ps', 'mkfifo', 'node', 'npm', 'inotifywait', 'python3']) expect(findTool(tool, dir as string), tool).not.toBeNull();
    expect(findTool('git', dir as string)).toBeNull();
  });
});

describe('whether dependencies are installed', () => {
  it('is decided by npm\'s record of the last install being newer than package.json and the lockfile', () => {
    writeTree({ 'package.json': '{}', 'package-lock.json': '{}' });
    expect(installed(tmp.path)).toBe(false);
    writeTree({ 'node_modules/.package-lock.json': '{}' });
    expect(installed(tmp.path)).toBe(true);
    const later = Date.now() / 1000 + 60;
    utimesSync(join(tmp.path, 'package-lock.json'), later, later);
    expect(installed(tmp.path)).toBe(false);
  });
});

function writeTree(files: Record<string, string>) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(tmp.path, file, '..'), { recursive: true });
    writeFileSync(join(tmp.path, file), text);
  }
}
