// A one-node Slurm cluster for tests: munged, slurmctld and slurmd with their own key, sockets, ports, state
// and spool in a temporary folder; SLURM_CONF names its slurm.conf. Needs Debian's slurm-wlm and munge, as root.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cpus, hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { findTool } from '../../scripts/system-tools.mjs';
import { freePort } from '../ssh/testing';

export interface TestSlurm {
  /** The slurm.conf: SLURM_CONF for sbatch, squeue, scancel. */
  conf: string;
  env: NodeJS.ProcessEnv;
  /** A Slurm command's output, as this cluster answers it. */
  run(command: string, args: string[]): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startSlurm(): Promise<TestSlurm> {
  const dir = mkdtempSync(join(tmpdir(), 'cellwatch-slurm-'));
  for (const sub of ['state', 'spool', 'munge']) mkdirSync(join(dir, sub));
  const key = join(dir, 'munge', 'munge.key');
  writeFileSync(key, randomBytes(1024));
  chmodSync(key, 0o600);
  const socket = join(dir, 'munge', 'munge.socket');
  execFileSync(findTool('munged') ?? 'munged', ['--force', `--key-file=${key}`, `--socket=${socket}`, `--pid-file=${join(dir, 'munge', 'pid')}`, `--log-file=${join(dir, 'munge', 'log')}`, `--seed-file=${join(dir, 'munge', 'seed')}`]);
  const node = hostname().split('.')[0] as string;
  const user = userInfo().username;
  const conf = join(dir, 'slurm.conf');
  writeFileSync(
    conf,
    [
      'ClusterName=cellwatch-test', `SlurmctldHost=${node}`, `SlurmUser=${user}`, `SlurmdUser=${user}`,
      'AuthType=auth/munge', `AuthInfo=socket=${socket}`, 'CredType=cred/munge',
      `SlurmctldPort=${await freePort()}`, `SlurmdPort=${await freePort()}`,
      `StateSaveLocation=${join(dir, 'state')}`, `SlurmdSpoolDir=${join(dir, 'spool')}`,
      `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`, `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
      `SlurmctldLogFile=${join(dir, 'slurmctld.log')}`, `SlurmdLogFile=${join(dir, 'slurmd.log')}`,
      'ProctrackType=proctrack/linuxproc', 'TaskPlugin=task/none', 'JobAcctGatherType=jobacct_gather/none',
      'SelectType=select/cons_tres', 'ReturnToService=2', 'MpiDefault=none',
      `NodeName=${node} CPUs=${cpus().length} State=UNKNOWN`,
      `PartitionName=debug Nodes=${node} Default=YES MaxTime=INFINITE State=UP`,
    ].join('\n') + '\n',
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const daemons: ChildProcess[] = ['slurmctld', 'slurmd'].map((daemon) => spawn(findTool(daemon) ?? daemon, ['-D', '-f', conf], { env, stdio: 'ignore' }));
  const run = (command: string, args: string[]) => execFileSync(command, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = async () => {
    try {
      run('scancel', ['--user', user]);
    } catch {
      // nothing queued, or the controller is gone already
    }
    daemons.forEach((d) => d.kill('SIGTERM'));
    await Promise.all(daemons.map((d) => (d.exitCode === null && d.signalCode === null ? new Promise((r) => d.once('exit', r)) : null)));
    const munged = Number(readFileSync(join(dir, 'munge', 'pid'), 'utf8'));
    const alive = () => {
      try {
        process.kill(munged, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (alive()) process.kill(munged, 'SIGTERM');
    // It removes its socket as it goes: the folder is removed once it has gone.
    for (let i = 0; i < 50 && alive(); i++) await sleep(50);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  for (let i = 0; ; i++) {
    let state = '';
    try {
      state = run('sinfo', ['-h', '-o', '%T']).trim();
    } catch {
      // the controller is not up yet
    }
    if (state === 'idle') break;
    if (i > 150) {
      const log = (name: string) => readFileSync(join(dir, name), 'utf8').split('\n').slice(-5).join('\n');
      const why = `sinfo says ${JSON.stringify(state)} after 30 s.\nslurmctld.log:\n${log('slurmctld.log')}\nslurmd.log:\n${log('slurmd.log')}`;
      await stop();
      throw new Error(`the test Slurm cluster did not come up: ${why}`);
    }
    await sleep(200);
  }
  return { conf, env, run, stop };
}
