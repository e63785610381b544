import { join, sep } from 'node:path';
import { mergeProblems, problem, type CellSummary, type FormatName, type Problem } from '../shared/model';
import { baseCell, judgeBoard, NO_LABELS } from './common/cell';
import type { LogCache } from './common/logs';
import { ADAPTERS, cellFolder } from './index';
import { capabilitiesOf, type CellRead, type ReadContext } from './types';
import { append } from '../shared/arrays';
import { pastPlan } from './common/integrity';
import { elided, MAX_NAME_CHARS, MAX_TEXT_CHARS } from '../shared/elide';
import { identityName } from './common/identity-name';

export interface ReadOptions {
  /** Also what the cell view shows (detail), from the same pass. */
  detail?: boolean;
  /** Check every event log of the cell for malformed lines, on from where this cache left each. */
  logs?: LogCache;
  /**
   * The paths a watch saw change since `logs` last checked this cell's logs: a log checked before that is
   * not among them, nor a folder above it, is not looked at again. Absent: every log is.
   */
  changed?: ReadonlySet<string>;
}

/** Says whether a path, or a folder above it, is among `changed`. */
function touchedBy(changed: ReadonlySet<string>): (path: string) => boolean {
  const folders = [...changed].map((path) => `${path}${sep}`);
  return (path) => changed.has(path) || folders.some((folder) => path.startsWith(folder));
}

/** The malformed lines of every event log of a cell, on from where `logs` left each log (see ReadOptions.changed). */
export async function logProblems(dir: string, format: FormatName, ctx: ReadContext, logs: LogCache, changed?: ReadonlySet<string>): Promise<Problem[]> {
  const found: Problem[] = [];
  const folder = cellFolder(dir, format);
  const touched = changed && touchedBy(changed);
  for (const log of await ADAPTERS[format].eventLogs(dir, ctx)) {
    if (log.checked) continue;
    const path = join(folder, log.file);
    append(found, await logs.problems(path, log.file, touched !== undefined && !touched(path)));
  }
  return found;
}

/** A cell that could not be read, saying why: its folder and format, `message` its problem, off its board. */
export function unreadableCell(dir: string, format: FormatName, ctx: Pick<ReadContext, 'host'>, message: string): CellRead {
  const cell = baseCell(dir, format, ctx);
  cell.problems = [problem(dir, message)];
  if (ADAPTERS[format].capabilities.board) judgeBoard(cell, [message]);
  return { cell, labels: NO_LABELS, changedAt: null, units: [] };
}

/** Reads a cell with its format's adapter; whatever goes wrong becomes a problem on the cell, never a throw. */
export async function readCell(dir: string, format: FormatName, ctx: ReadContext, options: ReadOptions = {}): Promise<CellRead> {
  const unreadable = (message: string) => unreadableCell(dir, format, ctx, message);
  // A cell that is a file says itself when it is gone: its rollouts may not be written yet.
  if (!ADAPTERS[format].capabilities.fileCell && (await ctx.fs.stat(dir))?.kind !== 'dir') return { ...unreadable('cell folder no longer exists'), gone: true };
  try {
    const read = withIntegrity(await ADAPTERS[format].read(dir, ctx, { detail: options.detail }));
    if (options.logs) read.cell.problems = mergeProblems(read.cell.problems, await logProblems(dir, format, ctx, options.logs, options.changed));
    return read;
  } catch (error) {
    return unreadable(`could not read this cell: ${(error as Error).message}`);
  }
}

const nameOf = (label: string | null) => (label === null ? null : elided(label, MAX_NAME_CHARS));

const countBy = (keys: string[]) => {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
};

/** Units (or a view's rows of them) whose ids are each within a name's most (identityName): as read where all are, else a list of new ones. */
const identified = <T extends { id: string }>(units: T[]) => (units.some((u) => u.id.length > MAX_NAME_CHARS) ? units.map((u) => (u.id.length > MAX_NAME_CHARS ? { ...u, id: identityName(u.id) } : u)) : units);

/**
 * The read with its integrity problems (and a count past its plan) on the cell, and the cell off its board
 * for each; and its excluded units counted by status, which a summary carries where its units do not go.
 * Its name, labels (each agent's model too), board, benchmarks, reasons and statuses are the files' words,
 * whose values may be megabytes: each is cut to its size, as every row and view carries it; its units' ids,
 * which a paired test matches and a view's calls name, each become one name within that size.
 */
function withIntegrity(read: CellRead): CellRead {
  read.units = identified(read.units);
  // The view's rows name their units as the paired test does; an id of a megabyte in a call would end the window's connection.
  if (read.detail) read.detail.episodes = identified(read.detail.episodes);
  if (read.agentUnits) read.agentUnits = Object.fromEntries(Object.entries(read.agentUnits).map(([agent, units]) => [agent, identified(units)]));
  read.excludedBy = countBy(read.units.filter((u) => !u.scored).map((u) => elided(u.status, MAX_NAME_CHARS)));
  const cell = read.cell;
  cell.name = elided(cell.name, MAX_NAME_CHARS);
  read.labels = { harness: nameOf(read.labels.harness), model: nameOf(read.labels.model), condition: nameOf(read.labels.condition), effort: nameOf(read.labels.effort) };
  if (read.agents) read.agents = read.agents.map((agent) => ({ ...agent, model: nameOf(agent.model) }));
  if (read.boardName !== undefined) read.boardName = elided(read.boardName, MAX_NAME_CHARS);
  if (read.benchmarks) read.benchmarks = read.benchmarks.map((benchmark) => elided(benchmark, MAX_NAME_CHARS));
  cell.board_reasons = cell.board_reasons.map((reason) => elided(reason, MAX_TEXT_CHARS));
  const broken = [...(read.integrity ?? []), ...pastPlan(cell, ADAPTERS[cell.format].pairing.unit)];
  if (!broken.length) return read;
  cell.problems = mergeProblems(cell.problems, broken);
  if (cell.board === 'on' || cell.board === 'off') {
    cell.board = 'off';
    cell.board_reasons = [...cell.board_reasons, ...broken.map((p) => p.message)];
  }
  return read;
}

/**
 * A cell's row: every field written out, in one literal of one shape. Built as the cell spread with the
 * row's fields added, each row took a hidden class of its own on Node 20 (V8 11): 45 us a row, 0.45 s of
 * the thread listing 10,000 cells, and as long again collecting those classes. Its type names every field
 * of a row (optional ones too), so one added to Cell or CellSummary fails to compile until it is added here.
 */
export function summaryOf(read: CellRead, root: string): CellSummary {
  const c = read.cell;
  const row: { [K in keyof Required<CellSummary>]: CellSummary[K] } = {
    id: c.id,
    host: c.host,
    path: c.path,
    format: c.format,
    name: c.name,
    board: c.board,
    board_reasons: c.board_reasons,
    state: c.state,
    budget: c.budget,
    episodes: c.episodes,
    success_rate: c.success_rate,
    tokens: c.tokens,
    cost_usd_estimate: c.cost_usd_estimate,
    cost_usd_billed: c.cost_usd_billed,
    cost_source: c.cost_source,
    problems: c.problems,
    // Last, where the adapters that have one add it to the cell; undefined (and so left out of JSON) where none.
    reward: c.reward,
    root,
    labels: read.labels,
    changedAt: read.changedAt,
    evaluatedVersions: read.evaluatedVersions ?? [],
    vramPeakMib: read.vramPeakMib ?? null,
    policyVersions: read.policyVersions ?? [],
    agents: read.agents ?? [],
    pausedUntil: read.pausedUntil ?? null,
    running: read.running ?? [],
    boardName: read.boardName ?? null,
    rivals: [],
    excludedBy: read.excludedBy ?? {},
    benchmarks: read.benchmarks ?? [],
    runnerCostUsd: read.runnerCostUsd ?? null,
    // Priced where the row is shown (main/prices.ts), which sets it.
    listPrice: undefined,
    versionScores: read.versionScores ?? {},
    capabilities: capabilitiesOf(ADAPTERS[c.format]),
  };
  return row;
}
