// The POSIX sh scripts that launch and control runs over a shell (an SSH host's exec channel, or sh here for
// Slurm's commands). Each is one command line: nothing is written on a host but the run's own cell.
import { posix } from 'node:path';
import { LAUNCH_FILES } from '../../shared/launch';
import { shellQuote } from '../../shared/quote';
import { cellExists, DRAIN, notResumable, replacedLog, sharedLog, STDERR, STDOUT, type LogIds } from './place';

const q = (text: string) => shellQuote([text]);

/** Files beside the run's output in its cell: "PID START" of its process group's leader, and its exit code. */
const PID_FILE = LAUNCH_FILES.pid;
const EXIT_FILE = LAUNCH_FILES.exit;

/**
 * Makes the run's cell, which must not exist yet: a launch never writes into a folder a run (sandboxed to
 * it, perhaps) already had the chance to fill with links. Fails naming it.
 */
const freshCellScript = (cell: string) =>
  `if [ -e ${q(cell)} ] || [ -L ${q(cell)} ]; then echo ${q(cellExists(cell))} >&2; exit 17; fi\nmkdir -p ${q(posix.dirname(cell))} && mkdir ${q(cell)}`;

/** A file's device and inode as `DEV:INO` (GNU or busybox stat); empty where stat cannot say. */
const fileId = (file: string) => `$(stat -c %d:%i ${q(file)} 2>/dev/null)`;

/**
 * For a resume: the run's own cell, a folder and no link, whose logs are no links either (they are appended
 * to) and, where the launch recorded them, the very files it made; its pid and exit files go, to be made
 * again, and the drain's sentinel. Fails naming what it refuses.
 */
const resumedCellScript = (cell: string, logs?: LogIds) =>
  [
    `if [ ! -d ${q(cell)} ] || [ -L ${q(cell)} ]; then echo ${q(notResumable(cell))} >&2; exit 17; fi`,
    ...([[STDOUT, logs?.stdout], [STDERR, logs?.stderr]] as const).flatMap(([name, expected]) => {
      const log = posix.join(cell, name);
      return [
        `if [ -L ${q(log)} ]; then echo ${q(notResumable(log))} >&2; exit 17; fi`,
        // A hard link's other name may be outside the cell: POSIX find's -links +1 is more than one.
        `if [ -n "$(find ${q(log)} -prune -links +1 2>/dev/null)" ]; then echo ${q(sharedLog(log))} >&2; exit 17; fi`,
        ...(expected ? [`if [ -e ${q(log)} ] && [ "${fileId(log)}" != ${q(expected)} ]; then echo ${q(replacedLog(log))} >&2; exit 17; fi`] : []),
      ];
    }),
    `rm -f ${[PID_FILE, EXIT_FILE, DRAIN].map((file) => q(posix.join(cell, file))).join(' ')}`,
  ].join('\n');

/** The cell a launch starts in: new, or the run's own for a resume. */
export const cellScript = (cell: string, resume = false, logs?: LogIds) => (resume ? resumedCellScript(cell, logs) : freshCellScript(cell));

/** Writes an empty `file`, never through a link planted there: the link is removed, then the file made exclusively (noclobber). */
const touchScript = (file: string) => `rm -f ${q(file)}; (set -C; : > ${q(file)})`;

/** The command with its environment, as one shell word list. */
export const withEnv = (command: string[], env: Record<string, string>) => shellQuote(['env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...command]);

/** A process's state letter and start time, from /proc (empty when it is gone). */
const procStat = (pid: string) => `sed 's/^.*) //' /proc/${pid}/stat 2>/dev/null | cut -d' ' -f1,20`;

/**
 * Starts the command in its own session (setsid), detached from the connection, output appended to the
 * cell's logs; a wrapping sh writes the exit code. Records "PID START", and prints it with the logs'
 * DEV:INO (for a resume, `logs`: those the launch made, which the logs must still be).
 */
export function startScript(cell: string, cwd: string, command: string[], env: Record<string, string>, resume = false, logs?: LogIds): string {
  // The run has had its cell to itself by the time it ends: its exit code goes in through no link of its.
  const exit = q(posix.join(cell, EXIT_FILE));
  // The wrapper hears a drain's USR1 (sent to the whole group) and waits on: its default would end it before
  // it wrote the exit code. A caught signal is the default again in the command it starts.
  const inner = `trap : USR1; ${withEnv(command, env)}; c=$?; rm -f ${exit}; (set -C; echo $c > ${exit})`;
  return [
    'set -e',
    // Every file this script makes is new: none is written through something already there.
    'set -C',
    cellScript(cell, resume, logs),
    `mkdir -p ${q(cwd)}`,
    `cd ${q(cwd)}`,
    `setsid sh -c ${q(inner)} >> ${q(posix.join(cell, STDOUT))} 2>> ${q(posix.join(cell, STDERR))} < /dev/null &`,
    'pid=$!',
    `start=$(${procStat('$pid')} | cut -d' ' -f2)`,
    `printf '%s %s\\n' "$pid" "$start" > ${q(posix.join(cell, PID_FILE))}`,
    `printf '%s %s %s %s\\n' "$pid" "$start" "${fileId(posix.join(cell, STDOUT))}" "${fileId(posix.join(cell, STDERR))}"`,
  ].join('\n');
}

export interface Leader {
  id: string;
  pid: number;
  pidStart: string | null;
  cell: string;
}

/** One line per run: "ID running|ended EXITCODE?". A zombie or a reused pid is ended. */
export function lookScript(runs: Leader[]): string {
  return [
    'look() {',
    `  s=$(${procStat('$2')})`,
    // Without /proc there is no start time to compare: the pid answering is all there is.
    '  if [ -z "$3" ]; then if kill -0 "$2" 2>/dev/null; then st=running; else st=ended; fi',
    '  else case "$s" in "Z "*|"") st=ended ;; *" $3") st=running ;; *) st=ended ;; esac; fi',
    // Not through a link the run put in place of its exit file.
    `  printf '%s %s %s\\n' "$1" "$st" "$([ -L "$4" ] || cat "$4" 2>/dev/null)"`,
    '}',
    ...runs.map((r) => `look ${q(r.id)} ${r.pid} ${q(r.pidStart ?? '')} ${q(posix.join(r.cell, EXIT_FILE))}`),
  ].join('\n');
}

export function parseLook(stdout: string): Map<string, { running: boolean; exitCode: number | null }> {
  const seen = new Map<string, { running: boolean; exitCode: number | null }>();
  for (const line of stdout.split('\n')) {
    const [id, state, code] = line.trim().split(' ');
    if (!id || !state) continue;
    seen.set(id, { running: state === 'running', exitCode: code === undefined || code === '' ? null : Number(code) });
  }
  return seen;
}

/**
 * SIGTERM to the process group, SIGKILL to what is left after the grace; only when its leader is the
 * process that was started (same start time), or is gone while the group lives on.
 */
export function stopScript(run: Leader, graceMs: number): string {
  const ticks = Math.ceil(graceMs / 100);
  return [
    `p=${run.pid}`,
    `s=$(${procStat('$p')} | cut -d' ' -f2)`,
    `if [ -n "$s" ] && [ -n ${q(run.pidStart ?? '')} ] && [ "$s" != ${q(run.pidStart ?? '')} ]; then exit 0; fi`,
    // Members of the group that are not zombies (an orphan's zombie may wait long for its reaper).
    `live() { cat /proc/[0-9]*/stat 2>/dev/null | sed 's/^.*) //' | awk -v g="$p" '$3 == g && $1 != "Z" { n++ } END { exit n == 0 }'; }`,
    'live || exit 0',
    'kill -TERM -$p 2>/dev/null',
    `i=0; while live && [ $i -lt ${ticks} ]; do sleep 0.1; i=$((i + 1)); done`,
    'if live; then kill -KILL -$p 2>/dev/null; fi',
    'i=0; while live && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done',
    'true',
  ].join('\n');
}

/** DRAIN in the cell, then `signal`; prints what the run wrote on stdout within `waitMs`. */
export function drainScript(cell: string, signal: string, waitMs: number): string {
  const out = q(posix.join(cell, STDOUT));
  return [
    `n=$(wc -c < ${out} 2>/dev/null || echo 0)`,
    touchScript(posix.join(cell, DRAIN)),
    signal,
    `sleep ${(waitMs / 1000).toFixed(1)}`,
    `tail -c +$((n + 1)) ${out} 2>/dev/null || true`,
  ].join('\n');
}

export const tailScript = (cell: string, file: string, lines: number) => `tail -n ${lines} ${q(posix.join(cell, file))} 2>/dev/null || true`;

export const lines = (text: string) => text.split('\n').filter((l) => l !== '');
