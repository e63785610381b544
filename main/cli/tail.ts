import { watch } from 'chokidar';
import { join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import type { StreamEvent } from '../../shared/cell-detail';
import { ADAPTERS } from '../../runners';
import type { EventLog } from '../../runners/types';
import { localContext, readCellAt } from '../cells';
import { LocalFollower } from '../tail/follower';
import { streamEvent } from '../watch/session';
import { UsageError, type Io } from './io';

export const TAIL_HELP = `cellwatch tail [--json] [--from-end] CELL

Prints the cell's events as they arrive, until Ctrl+C: coding-agent trajectories, the bigym ledger and
evaluation progress, the evopolicygym event log. Malformed lines are reported on stderr with file and line.
  --json       one object a line: {"cell", "episode", "seq", "t", "ev", ...the event's own fields}
  --from-end   only events written from now on`;

function line(cellId: string, event: StreamEvent, json: boolean): string {
  // The trajectory's own `episode` (a number) says the same as ours; ours is the stream's name.
  const { episode: _episode, ...fields } = event.fields;
  if (json) return JSON.stringify({ cell: cellId, episode: event.episode, seq: event.seq, t: event.t, ev: event.ev, ...fields });
  const when = event.t === null ? '' : new Date(event.t * 1000).toISOString().slice(11, 23);
  const detail = Object.entries(fields).filter(([key]) => key !== 'ev' && key !== 'type').map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(' ');
  return `${when} ${event.episode.padStart(5)} ${event.ev.padEnd(14)} ${detail}`.trimStart();
}

export async function tail(argv: string[], io: Io, stop?: AbortSignal): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, 'from-end': { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new UsageError(`name exactly one cell\n\n${TAIL_HELP}`);
  const ctx = localContext();
  const { cell } = await readCellAt(positionals[0] as string, ctx);
  const adapter = ADAPTERS[cell.format];
  const followers = new Map<string, LocalFollower>();
  const follow = async (log: EventLog, fromEnd: boolean) => {
    if (followers.has(log.file)) return;
    const follower = new LocalFollower(join(cell.path, log.file), log.file, (chunk) => {
      for (const record of chunk.records) io.out(line(cell.id, streamEvent(log, record), values.json));
      for (const p of chunk.problems) io.err(`${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
    }, fromEnd ? { from: 'end', bytes: 0 } : { from: 'start' });
    followers.set(log.file, follower);
    await follower.poll();
    follower.watch();
  };
  const logs = async () => adapter.eventLogs(cell.path, localContext(ctx.json));
  for (const log of await logs()) await follow(log, values['from-end']);
  if ((await logs()).length === 0) io.err(`${cell.name} (${cell.format}) writes no event log; cellwatch status shows its trials.`);

  const watcher = watch(cell.path, { ignoreInitial: true, depth: 5, ignored: (p: string) => /\.(png|jpe?g|mp4)$/i.test(p) });
  watcher.on('all', (_event, path) => {
    const rel = relative(cell.path, path).split(sep).join('/');
    const follower = followers.get(rel);
    if (follower) void follower.poll();
    // A log that appeared after the start (a new episode) is followed from its first line.
    else if (rel.endsWith('.jsonl')) void logs().then((all) => all.filter((l) => l.file === rel).forEach((l) => void follow(l, false)));
  });
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    stop?.addEventListener('abort', done, { once: true });
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await watcher.close();
  followers.forEach((f) => f.unwatch());
  return 0;
}
