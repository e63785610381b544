// npm run bench:fleet: 50 SSH hosts (50 private sshd on loopback ports, aliases in a temporary
// ~/.ssh/config, a stand-in nvidia-smi on each) of 200 coding-agent cells each. Prints the time until
// all 10,000 remote cells are listed, the app's CPU as it settles and idle after, and its connection count, beside the
// time 50 bare connections take to open in the same run (goals: listed within 15 s, idle under 2 % of
// a core, exactly 50 connections). Then `cellwatch status` over the first 20 hosts' 100-cell roots,
// beside `ssh ALIAS true` to each of them one after another and to all of them at once (goal: within
// 5 s; each the median of 3 taken in turn).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonl, writeTree } from '../../runners/testing';
import { createCore } from '../../main/core';
import { shellNvidiaSmi } from '../../main/gpu/fake/shell';
import { RemoteHost } from '../../main/ssh/host';
import { knownHostsConfig, startSshd, type TestSshd } from '../../main/ssh/testing';
import { measure, median, ROOT, type Measured } from './measure';

const HOSTS = Number(process.env.BENCH_HOSTS ?? 50);
const CELLS = Number(process.env.BENCH_CELLS ?? 200);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 60);
const CLI_HOSTS = Math.min(HOSTS, 20);
const CLI_CELLS = 100;
/**
 * Each SSH session starts the user's login shell, which reads ~/.bashrc (here it runs `pyenv init`,
 * about 120 ms): the app pays it once per helper, not per command. BENCH_EMPTY_HOME=1 gives the hosts'
 * sessions an empty HOME instead (no .bashrc at all).
 */
const OWN_SHELL = process.env.BENCH_EMPTY_HOME !== '1';
/** How many of each: `50 inotify`. */
const tally = (values: string[]) => [...new Set(values)].map((v) => `${values.filter((x) => x === v).length} ${v}`).join(', ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const work = mkdtempSync(join(tmpdir(), 'cellwatch-fleet-'));
const home = join(work, 'home');
mkdirSync(join(home, '.ssh'), { recursive: true });
const hostHome = join(work, 'host-home');
mkdirSync(hostHome);
const runs = join(work, 'runs');
for (let i = 0; i < CELLS; i++) {
  writeTree(join(runs, `std_sdk_m_c${String(i).padStart(3, '0')}_default`), {
    'run.json': { runner: 'coding-agent', run: `std_sdk_m_c${i}_default`, protocol: { episodes: [0, 1, 2, 3] } },
    'summary.json': { planned: [0, 1, 2, 3], episodes: { '0': { status: 'ended', success: i % 2 === 0, engaged: true } } },
    'episodes/0000/trajectory.jsonl': jsonl([{ seq: 0, t: 1, ev: 'episode_start' }]),
  });
}
const runs100 = join(work, 'runs100');
for (let i = 0; i < CLI_CELLS; i++) {
  writeTree(join(runs100, `std_sdk_m_c${String(i).padStart(3, '0')}_default`), {
    'run.json': { runner: 'coding-agent', run: `std_sdk_m_c${i}_default`, protocol: { episodes: [0, 1] } },
    'summary.json': { planned: [0, 1], episodes: { '0': { status: 'ended', success: true, engaged: true } } },
  });
}
console.log(`starting ${HOSTS} sshd...`);
const hosts: TestSshd[] = [];
for (let i = 0; i < HOSTS; i++) hosts.push(await startSshd(OWN_SHELL ? { ownHome: true } : { env: { HOME: hostHome } }));
// One client home: every host by its alias, key and host key.
writeFileSync(
  join(home, '.ssh', 'config'),
  hosts.map((h, i) => `Host gpu${i}\n  HostName 127.0.0.1\n  Port ${h.port}\n  IdentityFile ${join(h.home, '.ssh', 'id_ed25519')}\n`).join('') + knownHostsConfig(home),
);
writeFileSync(join(home, '.ssh', 'known_hosts'), hosts.map((h) => `${h.hostKeyLine}\n`).join(''));
process.env.HOME = home;

// Baseline: 50 bare connections opened at once, nothing read.
const bareStart = performance.now();
const bare = hosts.map((_, i) => new RemoteHost(`gpu${i}`));
await Promise.all(bare.map((h) => h.ready()));
const bareMs = performance.now() - bareStart;
bare.forEach((h) => h.close());
const connectionsBefore = (await Promise.all(hosts.map((h) => h.connections()))).reduce((a, b) => a + b, 0);

console.log(`listing ${HOSTS * CELLS} remote cells...`);
const started = performance.now();
const core = await createCore({
  configDir: join(work, 'config'),
  dataDir: join(work, 'data'),
  transport: 'serve',
  commandLineRoots: hosts.map((_, i) => `gpu${i}:${runs}`),
  nvidiaSmi: false,
  remoteNvidiaSmi: shellNvidiaSmi(work, join(ROOT, 'main', 'gpu', 'fixtures', 'noheader-nounits', 'linux-x86_64__nvidia-h200__590.48.01__load.csv')),
});
const count = async () => (await core.listCells()).length;
while ((await count()) < HOSTS * CELLS && performance.now() - started < 120_000) await sleep(100);
const listed = await count();
const listedMs = performance.now() - started;

/** The app's CPU (every thread of it) over the next `seconds`, in % of one core. */
async function cpuOver(seconds: number): Promise<number> {
  const before = process.cpuUsage();
  const start = performance.now();
  await sleep(seconds * 1000);
  const cpu = process.cpuUsage(before);
  return ((cpu.user + cpu.system) / 1000 / (performance.now() - start)) * 100;
}
// First V8 tidies the listing's garbage (collections of the whole heap, of each thread's, up to 40 s after it): apart from the idle after it.
const settlingPct = await cpuOver(SETTLE_SECONDS);
const idlePct = await cpuOver(IDLE_SECONDS);
const connections = (await Promise.all(hosts.map((h) => h.connections()))).reduce((a, b) => a + b, 0) - connectionsBefore;
const listedHosts = await core.listHosts();
const feeds = listedHosts.map((h) => h.feed?.mode ?? 'none');
const commands = listedHosts.map((h) => h.commands ?? 'none');
await core.close();

console.log(`cellwatch status over ${CLI_HOSTS} hosts x ${CLI_CELLS} cells...`);
const cliHosts = hosts.slice(0, CLI_HOSTS).map((_, i) => `gpu${i}`);
const env = { HOME: home, XDG_DATA_HOME: join(work, 'cli-data'), XDG_CONFIG_HOME: join(work, 'cli-config') };
// Each three times in turn, the medians kept: the bare logins one after another, then the command over all of them.
const sshRuns: number[] = [];
const atOnceRuns: number[] = [];
const statusRuns: Measured[] = [];
const bareLogin = (alias: string) => measure('ssh', ['-F', join(home, '.ssh', 'config'), '-o', 'BatchMode=yes', alias, 'true'], { env });
for (let i = 0; i < 3; i++) {
  const sshStart = performance.now();
  for (const alias of cliHosts) await bareLogin(alias);
  sshRuns.push(performance.now() - sshStart);
  const atOnceStart = performance.now();
  await Promise.all(cliHosts.map(bareLogin));
  atOnceRuns.push(performance.now() - atOnceStart);
  statusRuns.push(await measure(process.execPath, [join(ROOT, 'out/cli.mjs'), 'status', '--json', ...cliHosts.map((alias) => `${alias}:${runs100}`)], { env }));
}
const sshMs = median(sshRuns);
const status = { wallMs: median(statusRuns.map((r) => r.wallMs)) };
const statusRows = (JSON.parse((statusRuns[0] as Measured).stdout) as { cells: unknown[] }).cells.length;
await Promise.all(hosts.map((h) => h.stop()));
rmSync(work, { recursive: true, force: true });

console.log('');
console.log(`hosts' sessions: ${OWN_SHELL ? "the user's own login shell and .bashrc (BENCH_EMPTY_HOME=1 for none)" : 'an empty HOME (no .bashrc)'}`);
console.log(`${HOSTS} bare connections opened  ${(bareMs / 1000).toFixed(2).padStart(6)} s   (baseline)`);
console.log(`${listed} of ${HOSTS * CELLS} cells listed    ${(listedMs / 1000).toFixed(2).padStart(6)} s   (goal: within 15 s)`);
console.log(`CPU of the app as it settles  ${settlingPct.toFixed(2).padStart(6)} %   of one core over the ${SETTLE_SECONDS} s after the listing`);
console.log(`idle CPU of the app          ${idlePct.toFixed(2).padStart(6)} %   of one core over the next ${IDLE_SECONDS} s (goal: under 2 %)`);
console.log(`\`ssh ALIAS true\` x ${CLI_HOSTS}, in turn   ${(sshMs / 1000).toFixed(2).padStart(6)} s   (baseline, median of 3: ${sshRuns.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s)`);
console.log(`\`ssh ALIAS true\` x ${CLI_HOSTS}, at once   ${(median(atOnceRuns) / 1000).toFixed(2).padStart(6)} s   (baseline: the logins alone, as the command makes them; median of 3: ${atOnceRuns.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s)`);
console.log(`status over ${CLI_HOSTS} x ${CLI_CELLS} cells     ${(status.wallMs / 1000).toFixed(2).padStart(6)} s   (${statusRows} rows; goal: within 5 s; median of 3: ${statusRuns.map((r) => (r.wallMs / 1000).toFixed(2)).join(', ')} s)`);
console.log(`SSH connections              ${String(connections).padStart(6)}     (goal: exactly ${HOSTS}); feeds: ${tally(feeds)}; commands: ${tally(commands)}`);
