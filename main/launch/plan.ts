import { homedir } from 'node:os';
import { join, posix } from 'node:path';
import { parseTarget, targetHost, type LaunchPlan, type LaunchRequest, type ProfileInfo } from '../../shared/launch';
import type { GpuReading } from '../gpu/parse';
import { pickGpu } from './gpu-pick';
import { fill, loadProfiles, renderRun, type Profile, type RenderedRun } from './profiles';
import { sbatchLine } from './slurm';
import { LOCAL, isLocal } from '../../shared/address';

/** How a run is written where it starts: its data folder, `~`, the node and the Cellwatch CLI there. */
export interface HostSetup {
  dataDir: string;
  home: string;
  node: string;
  cli: string;
}

export interface LaunchContext {
  /** Where shipped profiles are (runners/profiles) and the user's (config/profiles). */
  profileDirs: string[];
  /** This machine's setup. */
  local: HostSetup;
  /** An SSH host's setup (asked over its connection). */
  hostSetup(host: string): Promise<HostSetup>;
  /** A host's GPUs now ('local': this machine). */
  gpus(host: string): Promise<GpuReading[]>;
  /** What a run lacks where the target starts it (needs.ts): one line each. */
  lacks(target: string | undefined, run: RenderedRun): Promise<string[]>;
}

export function profileDirs(packageRoot: string, configDir: string): string[] {
  return [join(packageRoot, 'runners', 'profiles'), join(configDir, 'profiles')];
}

/** The setup of the host a target writes on. */
function setupOf(target: string | undefined, ctx: LaunchContext): Promise<HostSetup> {
  const host = targetHost(parseTarget(target));
  return isLocal(host) ? Promise.resolve(ctx.local) : ctx.hostSetup(host);
}

/** The setup of an SSH host from what it answered: its $HOME, and node and cellwatch when on its PATH. */
export function hostSetupFrom(answer: string, local: HostSetup): HostSetup {
  const [home, node, cli] = answer.split('\n').map((l) => l.trim());
  if (!home?.startsWith('/')) throw new Error(`the host told no home folder (${JSON.stringify(answer.slice(0, 100))})`);
  // Without a cellwatch there, the one here, by its path: right where the host shares this machine's disk.
  return { dataDir: posix.join(home, '.local', 'share', 'cellwatch'), home, node: node || 'node', cli: cli || local.cli };
}

/** What a host is asked for its setup. */
export const HOST_SETUP_SCRIPT = `printf '%s\\n' "$HOME" "$(command -v node || true)" "$(command -v cellwatch || true)"`;

export async function profileInfos(ctx: LaunchContext, target?: string): Promise<ProfileInfo[]> {
  const [{ profiles }, setup] = await Promise.all([loadProfiles(ctx.profileDirs), setupOf(target, ctx)]);
  return profiles.map((p) => {
    const vars: Record<string, string> = { dataDir: setup.dataDir, home: '~' };
    const knobs = p.knobs.map((k) => {
      const value = fill(k.default, vars);
      vars[k.key] = value;
      return { key: k.key, label: k.label, default: value, ...(k.choices ? { choices: k.choices } : {}) };
    });
    return { name: p.name, description: p.description, format: p.format, gpu: p.gpu, canDrain: p.drain === 'sentinel', knobs };
  });
}

let lastStampS = 0;
/**
 * The time a launch's name is stamped with: now, or a second after the last stamp this process gave, so
 * that two launches in one second get two names (and two cells: a launch never goes into one that exists).
 */
function launchStamp(): Date {
  lastStampS = Math.max(Math.floor(Date.now() / 1000), lastStampS + 1);
  return new Date(lastStampS * 1000);
}

/** Renders the request into the exact command (and sbatch line) and picks its GPU; `refused` says why it would not start. */
export async function planLaunch(request: LaunchRequest, ctx: LaunchContext): Promise<{ plan: LaunchPlan; run: RenderedRun; profile: Profile }> {
  const target = parseTarget(request.target);
  const host = targetHost(target);
  const { profiles, problems } = await loadProfiles(ctx.profileDirs);
  const profile = profiles.find((p) => p.name === request.profile);
  if (!profile) {
    const broken = problems.map((p) => `${p.file}: ${p.message}`).join('; ');
    throw new Error(`no profile ${request.profile}; profiles: ${profiles.map((p) => p.name).join(', ')}${broken ? `. ${broken}` : ''}`);
  }
  const setup = await setupOf(request.target, ctx);
  const run = renderRun(profile, request.values, { ...setup, now: launchStamp() }, request.name, request.label);
  let gpu: number | null = null;
  // Each thing that would stop it, said apart: what the target lacks, then its GPU.
  const refusals = await ctx.lacks(request.target, run).catch((error: Error) => [`could not check the target: ${error.message}`]);
  // Slurm hands out GPUs itself (--gres); elsewhere the one with the most free memory is taken.
  if (profile.gpu && target.kind !== 'slurm') {
    try {
      gpu = pickGpu(await ctx.gpus(host), { requested: request.gpu, minFreeMib: request.minFreeMib, override: request.override }, isLocal(host) ? 'here' : `on ${host}`);
    } catch (error) {
      refusals.push((error as Error).message);
    }
  }
  const refused = refusals.length ? refusals.join('; ') : null;
  const env = { ...run.env, ...(gpu === null ? {} : { CUDA_VISIBLE_DEVICES: String(gpu) }) };
  const submit = target.kind === 'slurm' ? sbatchLine({ name: run.name, cell: run.cell, cwd: run.cwd, command: run.command, env }, request.slurm ?? {}, profile.gpu) : null;
  return { plan: { name: run.name, cell: run.listed, cwd: run.cwd, command: run.command, env, gpu, target: request.target ?? LOCAL, submit, refused }, run, profile };
}

export const localSetup = (dataDir: string, cli: string): HostSetup => ({ dataDir, home: homedir(), node: process.execPath, cli });
