// Test helpers: temporary folders, cells written from a map of files, file ages, adapters' reads, runners' stand-ins.
import { evalMembers, zipOf, type LogSpec } from './inspect/write';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { localFs } from './common/fs';
import { JsonReader } from './common/json';
import type { FormatAdapter, ReadContext } from './types';
import type { FormatName } from '../shared/model';
import { stuckUnits } from '../shared/stuck';
import { readCell } from './read';

export function tempDir(prefix = 'cellwatch-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  // Retried: a run a test stopped may still be writing its last file as the folder goes.
  return { path, remove: () => rmSync(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }) };
}

/** Writes `files` (relative path to contents; objects become JSON) under `root`. */
export function writeTree(root: string, files: Record<string, string | object>): void {
  for (const [relative, contents] of Object.entries(files)) {
    const file = join(root, relative);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof contents === 'string' ? contents : JSON.stringify(contents));
  }
}

export function context(now = Date.now()): ReadContext {
  return { fs: localFs, json: new JsonReader(localFs), now, host: 'local' };
}

/** Makes every named file (relative to `dir`) look `ageMs` old. */
export function age(dir: string, files: string[], ageMs: number): void {
  const when = (Date.now() - ageMs) / 1000;
  for (const file of files) utimesSync(join(dir, file), when, when);
}

export function jsonl(records: object[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

export async function read(adapter: FormatAdapter, dir: string, ctx = context()) {
  return adapter.read(dir, ctx);
}

/**
 * Puts the environment back as `saved` had it, in place: a test that replaced `process.env` with a copy
 * would leave children started after it (Node 26 spawns them from the real environment) with its changes.
 */
export function restoreEnv(saved: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
}

/** An Inspect `.eval` log of these samples, as Inspect writes one (finished when `spec.status` is given). */
export const inspectLog = (spec: LogSpec): Buffer => zipOf(evalMembers(spec));

/** The name Inspect would give a log: its creation time first (`{created}_{task}_{id}`). */
export const INSPECT_LOG_NAME = '2026-12-05T10-00-00+00-00_popularity_Mb7cvjF3LzcDbpUXgu5Vbr.eval';

/**
 * Writes a stand-in `inspect` into `bin` for launch tests: it copies a real log (inspect_ai's own test log)
 * into its --log-dir as INSPECT_LOG_NAME, at once or once the file `go` exists, then runs on for 30 s.
 */
export function inspectStandIn(bin: string, go?: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'inspect'), [
    '#!/bin/sh',
    'echo "inspect $*"',
    'while [ $# -gt 0 ]; do [ "$1" = --log-dir ] && dir="$2"; shift; done',
    ...(go ? [`while [ ! -e '${go}' ]; do sleep 0.05; done`] : []),
    `cp '${join(import.meta.dirname, 'inspect', 'fixtures', 'log_streaming.eval')}' "$dir/${INSPECT_LOG_NAME}"`,
    'sleep 30',
  ].join('\n'));
  chmodSync(join(bin, 'inspect'), 0o755);
}

/**
 * Writes a stand-in `ng_collect_rollouts` into `bin`: its inputs first, then rows of a real collection (Claude
 * Code's math rows, 5), cut short after 3 (a kill); run with `+resume_from_cache=true`, the rows its
 * collection lacks.
 */
export function nemoStandIn(bin: string): void {
  const real = join(import.meta.dirname, 'nemo-gym', 'fixtures', 'responses_api_agents', 'claude_code_agent', 'data', 'example_math_rollouts');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'ng_collect_rollouts'), [
    '#!/bin/sh',
    'resume=; for a in "$@"; do case "$a" in +output_jsonl_fpath=*) out="${a#+output_jsonl_fpath=}";; +resume_from_cache=true) resume=1;; esac; done',
    `cp '${real}_materialized_inputs.jsonl' "\${out%.jsonl}_materialized_inputs.jsonl"`,
    'if [ -n "$resume" ]; then have=$(wc -l < "$out"); else have=0; : > "$out"; fi',
    `tail -n +$((have + 1)) '${real}.jsonl' | if [ -n "$resume" ]; then cat; else head -n 3; fi >> "$out"`,
  ].join('\n'));
  chmodSync(join(bin, 'ng_collect_rollouts'), 0o755);
}

/** The stuck and looping units of the cell at `dir`, read and judged at `nowS` (epoch seconds). */
export async function stuckAt(dir: string, format: FormatName, nowS: number) {
  const read = await readCell(dir, format, context(nowS * 1000));
  return stuckUnits(read.running ?? [], nowS * 1000);
}
