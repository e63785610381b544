import { join } from 'node:path';
import type { LaunchPlan, LaunchRequest, ProfileInfo } from '../../shared/launch';
import type { GpuReading } from '../gpu/parse';
import { pickGpu } from './gpu-pick';
import { fill, loadProfiles, renderRun, type Profile, type RenderedRun } from './profiles';

export interface LaunchContext {
  /** Where shipped profiles are (runners/profiles) and the user's (config/profiles). */
  profileDirs: string[];
  dataDir: string;
  cli: string;
  /** This machine's GPUs now. */
  gpus(): Promise<GpuReading[]>;
}

export function profileDirs(packageRoot: string, configDir: string): string[] {
  return [join(packageRoot, 'runners', 'profiles'), join(configDir, 'profiles')];
}

export async function profileInfos(ctx: LaunchContext): Promise<ProfileInfo[]> {
  const { profiles } = await loadProfiles(ctx.profileDirs);
  return profiles.map((p) => {
    const vars: Record<string, string> = { dataDir: ctx.dataDir, home: '~' };
    const knobs = p.knobs.map((k) => {
      const value = fill(k.default, vars);
      vars[k.key] = value;
      return { key: k.key, label: k.label, default: value, ...(k.choices ? { choices: k.choices } : {}) };
    });
    return { name: p.name, description: p.description, format: p.format, gpu: p.gpu, canDrain: p.drain === 'sentinel', knobs };
  });
}

/** Renders the request into the exact command and picks its GPU; `refused` says why it would not start. */
export async function planLaunch(request: LaunchRequest, ctx: LaunchContext): Promise<{ plan: LaunchPlan; run: RenderedRun; profile: Profile }> {
  const { profiles, problems } = await loadProfiles(ctx.profileDirs);
  const profile = profiles.find((p) => p.name === request.profile);
  if (!profile) {
    const broken = problems.map((p) => `${p.file}: ${p.message}`).join('; ');
    throw new Error(`no profile ${request.profile}; profiles: ${profiles.map((p) => p.name).join(', ')}${broken ? `. ${broken}` : ''}`);
  }
  const run = renderRun(profile, request.values, { dataDir: ctx.dataDir, node: process.execPath, cli: ctx.cli, now: new Date() }, request.name, request.label);
  let gpu: number | null = null;
  let refused: string | null = null;
  if (profile.gpu) {
    try {
      gpu = pickGpu(await ctx.gpus(), { requested: request.gpu, minFreeMib: request.minFreeMib, override: request.override });
    } catch (error) {
      refused = (error as Error).message;
    }
  }
  const env = { ...run.env, ...(gpu === null ? {} : { CUDA_VISIBLE_DEVICES: String(gpu) }) };
  return { plan: { name: run.name, cell: run.cell, cwd: run.cwd, command: run.command, env, gpu, refused }, run, profile };
}
