import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { type Problem, problem } from '../../shared/model';

/** Hosts files in the config folder: hosts.yml, and hosts.<name>.local.yml as users keep them. */
const HOSTS_FILE = /^hosts(\.[\w-]+)*\.ya?ml$/;

export interface HostsFileRoots {
  /** Runs roots as `ALIAS:/path`: each host's `jobs` folder. */
  roots: string[];
  problems: Problem[];
}

/**
 * Reads `gpu1: {ssh: gpu1, jobs: /data/me/jobs/agents, benchmarks: [...]}` entries: `ssh` is the alias of
 * ~/.ssh/config (the entry's name when absent), `jobs` the runs root on that host.
 */
export async function readHostsFiles(configDir: string): Promise<HostsFileRoots> {
  const files = (await readdir(configDir).catch(() => [] as string[])).filter((f) => HOSTS_FILE.test(f)).sort();
  const roots: string[] = [];
  const problems: Problem[] = [];
  for (const name of files) {
    const file = join(configDir, name);
    let hosts: unknown;
    try {
      hosts = parse(await readFile(file, 'utf8'));
    } catch (error) {
      problems.push(problem(file, `not valid YAML: ${(error as Error).message}`));
      continue;
    }
    if (hosts === null || typeof hosts !== 'object') continue;
    for (const [key, value] of Object.entries(hosts as Record<string, unknown>)) {
      const entry = (value ?? {}) as { ssh?: unknown; jobs?: unknown };
      if (typeof entry.jobs !== 'string' || !entry.jobs.startsWith('/')) {
        problems.push(problem(file, `host ${key}: "jobs" must be an absolute path on that host`));
        continue;
      }
      roots.push(`${typeof entry.ssh === 'string' ? entry.ssh : key}:${entry.jobs}`);
    }
  }
  return { roots, problems };
}
