import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { Node } from 'yaml';
import { type Problem, problem, type RootLimit } from '../../shared/model';

/** Hosts files in the config folder: hosts.yml, and hosts.<name>.local.yml as users keep them. */
const HOSTS_FILE = /^hosts(\.[\w-]+)*\.ya?ml$/;

export interface HostsFileRoots {
  /** Runs roots (a local path, or `ALIAS:/path` for a host reached over SSH), each with what its entry limits it to. */
  roots: { address: string; limit: RootLimit | null }[];
  problems: Problem[];
}

/** A `benchmarks:` or `runs:` list: names, or one name; anything else is not one. */
function names(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  return Array.isArray(list) && list.every((v) => typeof v === 'string' && v.trim() !== '') ? list.map((v: string) => v.trim()) : null;
}

/**
 * Reads entries as seed 001 writes them: `local: {jobs: ../jobs/agents}` is a folder on this machine
 * (relative to the hosts file's folder); `gpu1: {ssh: gpu1, jobs: /data/me/jobs/agents}` the runs root on
 * the host that alias of ~/.ssh/config reaches. `benchmarks:` and `runs:` limit which of its cells are
 * listed. An entry that cannot be one is a problem naming its line.
 */
export async function readHostsFiles(configDir: string): Promise<HostsFileRoots> {
  const files = (await readdir(configDir).catch(() => [] as string[])).filter((f) => HOSTS_FILE.test(f)).sort();
  const roots: HostsFileRoots['roots'] = [];
  const problems: Problem[] = [];
  if (files.length === 0) return { roots, problems };
  const { isMap, isScalar, LineCounter, parseDocument } = await import('yaml');
  for (const name of files) {
    const file = join(configDir, name);
    const lines = new LineCounter();
    const text = await readFile(file, 'utf8').catch((error: Error) => (problems.push(problem(file, `could not be read: ${error.message}`)), null));
    if (text === null) continue;
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
    const lineOf = (node: Node | null | undefined) => (node?.range ? lines.linePos(node.range[0]).line : undefined);
    if (doc.errors.length) {
      const [error] = doc.errors;
      problems.push(problem(file, `not valid YAML: ${error?.message.split('\n')[0]}`, { line: error ? lines.linePos(error.pos[0]).line : undefined }));
      continue;
    }
    if (!isMap(doc.contents)) continue;
    for (const pair of doc.contents.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const at = { line: lineOf(pair.key as Node) };
      const entry = isMap(pair.value) ? (pair.value.toJSON() as { ssh?: unknown; jobs?: unknown; benchmarks?: unknown; runs?: unknown }) : null;
      const jobs = entry?.jobs;
      if (!entry || typeof jobs !== 'string' || jobs === '') {
        problems.push(problem(file, `host ${key}: needs "jobs", the folder its runs are in`, { ...at, tip: `${key}: {jobs: /path/to/jobs} here, or {ssh: ALIAS, jobs: /path} on an SSH host` }));
        continue;
      }
      if (entry.ssh !== undefined && typeof entry.ssh !== 'string') {
        problems.push(problem(file, `host ${key}: "ssh" must be an alias of ~/.ssh/config`, at));
        continue;
      }
      const [benchmarks, runs] = [names(entry.benchmarks), names(entry.runs)];
      if (!benchmarks || !runs) {
        const field = benchmarks ? 'runs' : 'benchmarks';
        problems.push(problem(file, `host ${key}: "${field}" must be a list of names`, { ...at, tip: `${field}: [${field === 'runs' ? 'codex-gpt6_luna-xhigh' : 'robolab'}]` }));
        continue;
      }
      const limit = benchmarks.length || runs.length ? { benchmarks, runs } : null;
      if (typeof entry.ssh === 'string') {
        if (!jobs.startsWith('/')) problems.push(problem(file, `host ${key}: "jobs" must be an absolute path on ${entry.ssh}, not ${JSON.stringify(jobs)}`, at));
        else roots.push({ address: `${entry.ssh}:${jobs}`, limit });
      } else roots.push({ address: isAbsolute(jobs) ? jobs : resolve(configDir, jobs), limit });
    }
  }
  return { roots, problems };
}
