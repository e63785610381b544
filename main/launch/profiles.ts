import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, normalize, posix } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { uiName } from '../../shared/launch';
import { problem, type FormatName, type Problem } from '../../shared/model';
import { ADAPTERS } from '../../runners';

const Knob = z.object({ key: z.string().regex(/^[a-z_]+$/), label: z.string(), default: z.string().default(''), choices: z.array(z.string()).optional() });

/** A runner profile: how to launch a runner, from YAML (shipped in runners/profiles, or the user's config folder). */
export const Profile = z.object({
  name: z.string().min(1),
  description: z.string().default(''),
  format: z.enum(Object.keys(ADAPTERS) as [FormatName, ...FormatName[]]),
  /** Whether the run needs a GPU: the launch then picks one and sets CUDA_VISIBLE_DEVICES. */
  gpu: z.boolean().default(true),
  /** sentinel: Drain writes DRAIN into the cell and sends SIGUSR1 (a runner that checks for it between units). */
  drain: z.enum(['sentinel']).optional(),
  /** The knob a drained run's resume spec goes in: Resume relaunches the run, with it, into its own cell. */
  resume_knob: z.string().regex(/^[a-z_]+$/).optional(),
  /**
   * What that knob takes: `episodes`, the units to run again (a drain's spec, the failed units); `missing`,
   * `true`, the runner re-running by itself every unit its cell lacks (a resume from its own cache).
   */
  resume_spec: z.enum(['episodes', 'missing']).default('episodes'),
  knobs: z.array(Knob).default([]),
  run_name: z.string(),
  /** Argument templates; "?knob:text" is included only when that knob is not empty. */
  command: z.array(z.string()).min(1),
  cwd: z.string(),
  env: z.record(z.string(), z.string()).default({}),
  cell: z.string(),
  /**
   * For a format whose cell is a file (capabilities.fileCell): that file, inside the run's folder `cell`; `*`
   * where the runner names it (`*.eval`), the first such file to appear being the cell.
   */
  cell_file: z.string().regex(/^[^/]+$/, 'a file name inside the run\'s folder').optional(),
});
export type Profile = z.infer<typeof Profile>;

export interface LoadedProfiles {
  profiles: Profile[];
  problems: Problem[];
}

/** Shipped profiles first; a user's profile of the same name replaces the shipped one. */
export async function loadProfiles(dirs: string[]): Promise<LoadedProfiles> {
  const byName = new Map<string, Profile>();
  const problems: LoadedProfiles['problems'] = [];
  for (const dir of dirs) {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /\.ya?ml$/.test(f)).sort();
    for (const file of files) {
      try {
        const profile = Profile.parse(parse(await readFile(join(dir, file), 'utf8')));
        byName.set(profile.name, profile);
      } catch (error) {
        problems.push(problem(join(dir, file), `profile ignored: ${error instanceof z.ZodError ? error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : (error as Error).message}`));
      }
    }
  }
  return { profiles: [...byName.values()], problems };
}

/** Fills `{key}` from `vars`; an unknown key is an error that names it. */
export function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{([a-zA-Z_]+)\}/g, (_, key: string) => {
    // Own keys only: `{constructor}` must not reach Object.prototype.
    if (!Object.hasOwn(vars, key)) throw new Error(`unknown placeholder {${key}} in ${JSON.stringify(template)}`);
    return vars[key] as string;
  });
}

const expandHome = (path: string, home: string) => (path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path);

export interface RenderedRun {
  profile: string;
  format: Profile['format'];
  name: string;
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /** The run's folder: the launch writes its output there. */
  cell: string;
  /** The path its cell is listed under: the folder, or the file in it that a cell that is a file is (`isListedAs`). */
  listed: string;
  values: Record<string, string>;
}

export interface RenderContext {
  dataDir: string;
  node: string;
  cli: string;
  now: Date;
  /** The home `~` stands for: the user's here, or on the SSH host the run starts on (default: here). */
  home?: string;
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * The cell a launch writes: an absolute path with the run's ui_ folder in it and nothing that climbs out
 * of that folder, whatever the knobs say (a task of `../../..`, a relative runs root).
 */
export function runCell(cell: string, name: string): string {
  if (!isAbsolute(cell)) throw new Error(`the run's cell must be an absolute path (is the runs root absolute?), not ${JSON.stringify(cell)}`);
  const parts = cell.split(/[\\/]+/);
  if (parts.includes('..') || parts.includes('.')) throw new Error(`the run's cell ${JSON.stringify(cell)} climbs out of its folder: knob values must not hold "." or ".." as a folder`);
  if (!parts.includes(name)) throw new Error(`the run's cell ${JSON.stringify(cell)} is not inside its ${name} folder`);
  return normalize(cell);
}

/** The exact command a launch runs, from a profile and the user's knob values (and name, when they typed one). */
export function renderRun(profile: Profile, set: Record<string, string>, ctx: RenderContext, name?: string, label?: string): RenderedRun {
  const unknown = Object.keys(set).filter((key) => key !== 'name' && !profile.knobs.some((k) => k.key === key));
  if (unknown.length) throw new Error(`profile ${profile.name} has no knob ${unknown.join(', ')}; it has ${profile.knobs.map((k) => k.key).join(', ') || 'none'}`);
  // A label takes the stamp's place in the name, so the profile's other parts (harness, model, ...) stay in it.
  const own = label?.replace(/^ui[-_]?/, '').replace(/[^A-Za-z0-9_.-]+/g, '-');
  const vars: Record<string, string> = { dataDir: ctx.dataDir, node: ctx.node, cli: ctx.cli, stamp: own || stamp(ctx.now), home: ctx.home ?? homedir() };
  for (const knob of profile.knobs) {
    const value = set[knob.key] ?? fill(knob.default, vars);
    if (knob.choices && !knob.choices.includes(value)) throw new Error(`${knob.key} must be one of ${knob.choices.join(', ')}, not ${JSON.stringify(value)}`);
    vars[knob.key] = knob.key === 'root' || knob.key === 'repo' || knob.key === 'checkout' || knob.key === 'script' ? expandHome(value, vars.home as string) : value;
  }
  vars.name = uiName(name ?? set.name ?? fill(profile.run_name, vars));
  vars.cell = runCell(expandHome(fill(profile.cell, vars), vars.home as string), vars.name);
  // A knob (the custom profile's Command) may name the run's folder and name: known only now.
  for (const knob of profile.knobs) vars[knob.key] = (vars[knob.key] as string).replaceAll('{cell}', vars.cell).replaceAll('{name}', vars.name);
  const command = profile.command.flatMap((arg) => {
    const conditional = /^\?([a-z_]+):(.*)$/.exec(arg);
    if (conditional) return vars[conditional[1] as string] ? [fill(conditional[2] as string, vars)] : [];
    return [fill(arg, vars)];
  });
  const values = Object.fromEntries(profile.knobs.map((k) => [k.key, vars[k.key] as string]));
  return {
    profile: profile.name,
    format: Profile.shape.format.safeParse(vars.format).data ?? profile.format,
    name: vars.name,
    command,
    cwd: expandHome(fill(profile.cwd, vars), vars.home as string),
    env: Object.fromEntries(Object.entries(profile.env).map(([k, v]) => [k, fill(v, vars)])),
    cell: vars.cell,
    listed: profile.cell_file ? posix.join(vars.cell, fill(profile.cell_file, vars)) : vars.cell,
    values,
  };
}
