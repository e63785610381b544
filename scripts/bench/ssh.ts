// npm run bench:ssh: 20 files on an SSH host (a private sshd on 127.0.0.1) grow for BENCH_SECONDS (60);
// prints the bytes received over the connection against the bytes appended (goal: at most 1.1x), and
// append-to-arrival latency of the remote followers beside the same on the local files.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RemoteHost } from '../../main/ssh/host';
import { sftpSource } from '../../main/ssh/sftp-fs';
import { startSshd } from '../../main/ssh/testing';
import { Follower } from '../../main/tail/follower';
import { localSource } from '../../main/tail/source';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const FILES = 20;
const LINES_PER_SECOND = 10;
const REMOTE_POLL_MS = Number(process.env.BENCH_POLL_MS ?? 250);

const now = () => performance.timeOrigin + performance.now();
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? NaN;

const sshd = await startSshd();
process.env.HOME = sshd.home;
writeFileSync(join(sshd.home, '.ssh', 'known_hosts'), `${sshd.hostKeyLine}\n`);
const dir = join(sshd.dir, 'files');
mkdirSync(dir);
const files = Array.from({ length: FILES }, (_, i) => join(dir, `f${i}.jsonl`));
files.forEach((f) => writeFileSync(f, ''));

let received = 0;
const host = new RemoteHost('testhost', { home: sshd.home, onBytesReceived: (n) => (received += n) });
await host.ready();
const written = new Map<string, number>();
const arrived = { remote: [] as number[], local: [] as number[] };
const followers = files.flatMap((file, i) => {
  const onChunk = (kind: 'remote' | 'local') => (chunk: { records: { value: Record<string, unknown> }[] }) => {
    const at = now();
    for (const r of chunk.records) arrived[kind].push(at - (written.get(`${i}:${r.value.seq}`) as number));
  };
  const remote = new Follower(sftpSource(() => host.sftp(), file), file, onChunk('remote'));
  const local = new Follower(localSource(file), file, onChunk('local'));
  local.watch();
  return [remote, local];
});
await Promise.all(followers.map((f) => f.poll()));
const remoteFollowers = followers.filter((_, i) => i % 2 === 0);
const poller = setInterval(() => remoteFollowers.forEach((f) => void f.poll()), REMOTE_POLL_MS);

const baseline = received;
let appended = 0;
let seq = 0;
console.log(`${FILES} files x ${LINES_PER_SECOND} lines/s for ${SECONDS} s over one SSH connection (SFTP, polled every ${REMOTE_POLL_MS} ms)...`);
const started = Date.now();
while (Date.now() - started < SECONDS * 1000) {
  seq++;
  for (const [i, file] of files.entries()) {
    const line = `${JSON.stringify({ seq, t: Date.now() / 1000, ev: 'tool_call', name: 'step_discrete', args: { action: 'forward' }, pad: 'x'.repeat(40 + ((seq * 7 + i) % 60)) })}\n`;
    written.set(`${i}:${seq}`, now());
    appendFileSync(file, line);
    appended += Buffer.byteLength(line);
  }
  await new Promise((r) => setTimeout(r, 1000 / LINES_PER_SECOND));
}
await new Promise((r) => setTimeout(r, 1500));
clearInterval(poller);
followers.forEach((f) => f.unwatch());
const bytes = received - baseline;
host.close();
await sshd.stop();

console.log('');
console.log(`appended                ${(appended / 1024).toFixed(0).padStart(8)} KiB`);
console.log(`received over SSH       ${(bytes / 1024).toFixed(0).padStart(8)} KiB   ${(bytes / appended).toFixed(2)}x the bytes appended (goal: at most 1.1x)`);
for (const kind of ['local', 'remote'] as const) {
  const d = arrived[kind];
  console.log(`${kind.padEnd(6)} append-to-arrival  ${String(d.length).padStart(6)} lines  p50 ${percentile(d, 50).toFixed(1)} ms  p95 ${percentile(d, 95).toFixed(1)} ms${kind === 'local' ? '  baseline' : ''}`);
}
