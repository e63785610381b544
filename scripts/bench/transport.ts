// npm run bench:transport: the two ways Cellwatch reaches a host, on the same private sshd, so the choice
// between them rests on figures: ssh2 in this process, and the system's OpenSSH client (a master
// connection, each session a process multiplexed over it). For each: time to connect, a short command
// (p50 of 200), a streamed command from its start to its exit (p50 of 50: a process of the connection's mux,
// or a session of its own, and its login shell, where the host has no python3), SFTP stat round trips (p50 of 200) and reading a 32 MB file, and this process's CPU for
// all of it. The hosts' login shell is the user's own (this machine's .bashrc).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SFTPWrapper } from 'ssh2';
import { openConnection, sftp } from '../../main/ssh/connection';
import { resolveAlias } from '../../main/ssh/openssh';
import { openSystemSsh } from '../../main/ssh/system-ssh';
import { ssh2Transport, type HostConnection } from '../../main/ssh/transport';
import { startSshd } from '../../main/ssh/testing';
import { row } from './measure';

const sshd = await startSshd({ trusted: true, ownHome: true });
const config = join(sshd.home, '.ssh', 'config');
const big = join(sshd.dir, 'big.bin');
writeFileSync(big, Buffer.alloc(32 << 20, 7));
// ssh reads `~` as the passwd entry's home: the key by its whole path for the system's ssh.
writeFileSync(config, `Host testhost\n  HostName 127.0.0.1\n  Port ${sshd.port}\n  IdentityFile ${join(sshd.home, '.ssh', 'id_ed25519')}\n  UserKnownHostsFile ${join(sshd.home, '.ssh', 'known_hosts')}\n`);
const host = await resolveAlias('testhost', sshd.home);

/** CPU seconds of this process's ended children (ssh processes), from /proc. */
const childrenCpuMs = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[13]) + Number(fields[14])) / 100) * 1000;
};
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const timed = async (fn: () => Promise<unknown>) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};
const stat = (channel: SFTPWrapper, path: string) => new Promise<void>((resolve, reject) => channel.stat(path, (error) => (error ? reject(error) : resolve())));
const read = (channel: SFTPWrapper, path: string) => new Promise<number>((resolve, reject) => channel.readFile(path, (error, data) => (error ? reject(error) : resolve(data.length))));

async function measure(label: string, connect: () => Promise<HostConnection>): Promise<void> {
  const cpu = process.cpuUsage();
  const childCpu = childrenCpuMs();
  let transport: HostConnection | undefined;
  const connectMs = await timed(async () => (transport = await connect()));
  const t = transport as HostConnection;
  await t.commands.run('true');
  const helper: number[] = [];
  for (let i = 0; i < 200; i++) helper.push(await timed(() => t.commands.run(`echo ${i}`)));
  const own: number[] = [];
  for (let i = 0; i < 50; i++) {
    own.push(
      await timed(
        () =>
          new Promise<void>((resolve) => {
            const child = t.commands.stream(`echo ${i}`);
            child.on('exit', () => resolve());
          }),
      ),
    );
  }
  const stats: number[] = [];
  for (let i = 0; i < 200; i++) stats.push(await timed(() => stat(t.sftp, big)));
  let bytes = 0;
  const readMs = await timed(async () => (bytes = await read(t.sftp, big)));
  const used = process.cpuUsage(cpu);
  t.end();
  await new Promise((r) => setTimeout(r, 500));
  console.log(`${label}:`);
  console.log(row('  connect', `${connectMs.toFixed(0)} ms`));
  console.log(row('  a short command', `${p50(helper).toFixed(2)} ms`, 'p50 of 200'));
  console.log(row('  a streamed command', `${p50(own).toFixed(1)} ms`, 'p50 of 50, start to exit'));
  console.log(row('  SFTP stat', `${p50(stats).toFixed(2)} ms`, 'p50 of 200'));
  console.log(row('  SFTP read 32 MB', `${readMs.toFixed(0)} ms`, `${((bytes / (1 << 20)) / (readMs / 1000)).toFixed(0)} MB/s`));
  console.log(row('  CPU of this process', `${((used.user + used.system) / 1000).toFixed(0)} ms`, `and ${(childrenCpuMs() - childCpu).toFixed(0)} ms in its ssh processes`));
}

await measure('ssh2 (in this process)', async () => {
  const client = await openConnection(host, {});
  return ssh2Transport(client, await sftp(client));
});
await measure("the system's OpenSSH (a master, a process a session)", () => openSystemSsh(host, 'measured', { home: sshd.home }));
await sshd.stop();
