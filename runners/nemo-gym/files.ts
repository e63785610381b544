// The files of a NeMo Gym rollout collection: `<stem>.jsonl` and what the collector writes beside it
// (formats.md section 5). A collection is a cell whose path is its rollouts file.
import { basename, dirname, join } from 'node:path';
import type { CellFs } from '../common/fs';
import { memberSpans } from '../common/json-bytes';

/** What the collector writes beside `<stem>.jsonl`, by the suffix it adds to the stem. */
export const SIDECARS = {
  inputs: '_materialized_inputs.jsonl',
  failures: '_failures.jsonl',
  aggregate: '_aggregate_metrics.json',
  agentMetrics: '_agent_metrics.json',
  profiling: '_reward_profiling.jsonl',
} as const;

const SUFFIXES = Object.values(SIDECARS);

/** The collection's files, by what they are, as paths beside its rollouts file. */
export function collectionFiles(rollouts: string): { rollouts: string; stem: string } & Record<keyof typeof SIDECARS, string> {
  const stem = basename(rollouts, '.jsonl');
  const beside = (suffix: string) => join(dirname(rollouts), `${stem}${suffix}`);
  return {
    rollouts,
    stem,
    inputs: beside(SIDECARS.inputs),
    failures: beside(SIDECARS.failures),
    aggregate: beside(SIDECARS.aggregate),
    agentMetrics: beside(SIDECARS.agentMetrics),
    profiling: beside(SIDECARS.profiling),
  };
}

/** The rollouts file a sidecar belongs to (`x_failures.jsonl` -> `x.jsonl`), or null for any other file. */
export function rolloutsOfSidecar(path: string): string | null {
  const name = basename(path);
  const suffix = SUFFIXES.find((s) => name.endsWith(s) && name.length > s.length);
  return suffix ? join(dirname(path), `${name.slice(0, -suffix.length)}.jsonl`) : null;
}

/** Keys only a NeMo Gym row has; a row with `reward` and a Responses API `response` is one too. */
const ROW_KEYS = ['_ng_task_index', '_ng_rollout_index'];

/** Whether a first line is a NeMo Gym row, by its own keys. */
export function isRolloutRow(line: string): boolean {
  const bytes = Buffer.from(line);
  const spans = memberSpans(bytes, 0, bytes.length);
  if (!spans) return false;
  return ROW_KEYS.some((k) => spans.has(k)) || (spans.has('reward') && spans.has('response'));
}

/** The first line is looked for in this many bytes, then in this many more (a first row of whole conversations). */
const FIRST_LOOK = 256 * 1024;
const SECOND_LOOK = 8 * 1024 * 1024;

async function firstLine(fs: CellFs, path: string): Promise<string | null> {
  for (const bytes of [FIRST_LOOK, SECOND_LOOK]) {
    const head = await fs.readFrom(path, 0, bytes);
    if (!head) return null;
    const newline = head.text.indexOf('\n');
    if (newline >= 0) return head.text.slice(0, newline);
    if (!head.truncated) return null;
  }
  return null;
}

/**
 * The rollout collections among a folder's files, as the paths of their rollouts files: each stem with
 * materialized inputs beside it (its rollouts file may not be written yet), and each other `.jsonl`
 * whose first row is a NeMo Gym row. Never by a name alone. `known` paths are not opened again.
 */
export async function collectionsIn(fs: CellFs, dir: string, files: ReadonlySet<string>, known: (path: string) => boolean): Promise<string[]> {
  const found = new Set<string>();
  for (const name of files) {
    const owner = name.endsWith(SIDECARS.inputs) ? rolloutsOfSidecar(join(dir, name)) : null;
    if (owner) found.add(owner);
  }
  for (const name of files) {
    const path = join(dir, name);
    if (!name.endsWith('.jsonl') || rolloutsOfSidecar(path) !== null || found.has(path)) continue;
    if (known(path)) found.add(path);
    else {
      const line = await firstLine(fs, path);
      if (line !== null && isRolloutRow(line)) found.add(path);
    }
  }
  return [...found].sort();
}
