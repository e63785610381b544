import { parseArgs } from 'node:util';
import type { StreamEvent } from '../../shared/cell-detail';
import { ADAPTERS, cellFolder } from '../../runners';
import type { EventLog } from '../../runners/types';
import { commandPlaces, openAt, readCellAt } from './places';
import { FinishedUnits } from '../tail/finished-units';
import { FollowSet } from '../tail/follow-set';
import { streamEvent } from '../../runners/common/stream-event';
import { outJson, untilStopped, UsageError, type Io } from './io';
import { problemLine } from './printable';
import { wrapped } from './help-text';

/** Each format's events, in its own words (FormatAdapter.events). */
const EVENTS = Object.values(ADAPTERS).flatMap((adapter) => (adapter.events ? [adapter.events] : [])).join(', ');

export const TAIL_HELP = `cellwatch tail [--json] [--from-end] [--accept-new-host-key] CELL

${wrapped(`Prints the cell's events as they arrive, until Ctrl+C: ${EVENTS}. Malformed lines are reported on stderr with file and line. CELL may be on an SSH host (ssh://ALIAS/abs/path or ALIAS:/abs/path): the tail then reads over SFTP and, when the connection drops, resumes from the byte it had reached.`)}
  --json       one object a line: {"cell", "episode", "seq", "t", "ev", ...the event's own fields}
  --from-end   only events written from now on`;

/** An event on a line of its own: an object (--json), else its time, stream, kind and fields in words. */
function print(io: Io, cellId: string, event: StreamEvent, json: boolean): void {
  // The trajectory's own `episode` (a number) says the same as ours; ours is the stream's name.
  const { episode: _episode, ...fields } = event.fields;
  if (json) return outJson(io, { cell: cellId, episode: event.episode, seq: event.seq, t: event.t, ev: event.ev, ...fields });
  const when = event.t === null ? '' : new Date(event.t * 1000).toISOString().slice(11, 23);
  const detail = Object.entries(fields).filter(([key]) => key !== 'ev' && key !== 'type').map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(' ');
  io.out(`${when} ${event.episode.padStart(5)} ${event.ev.padEnd(14)} ${detail}`.trimStart());
}

export async function tail(argv: string[], io: Io, stop?: AbortSignal): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      'from-end': { type: 'boolean', default: false },
      'accept-new-host-key': { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError(`name exactly one cell\n\n${TAIL_HELP}`);
  const places = commandPlaces({
    acceptNewHostKey: values['accept-new-host-key'],
    onHostStatus: (status) => {
      if (status.state === 'reconnecting') {
        const wait = Math.round(((status.retryAt ?? Date.now()) - Date.now()) / 1000);
        io.err(`${status.alias}: ${status.problem?.message}; reconnecting${wait > 0 ? ` in ${wait} s` : ''}`);
      }
      else if (status.state === 'connected') io.err(`${status.alias}: connected`);
      else if (status.state === 'failed') io.err(`${status.alias}: ${status.problem?.message}`);
    },
  });
  const target = await openAt(places, positionals[0] as string).catch(async (error: Error) => {
    await places.close();
    throw error;
  });
  const { cell } = await readCellAt(target);
  const adapter = ADAPTERS[cell.format];
  const folder = cellFolder(cell.path, cell.format);
  // The same follow loop as an open cell's in the window (tail/follow-set.ts).
  const follows = new FollowSet(target.context, folder);
  const follow = async (log: EventLog, fromEnd: boolean) => {
    if (follows.has(log.file)) return;
    await follows.follow(
      log.file,
      (chunk) => {
        for (const record of chunk.records) print(io, cell.id, streamEvent(log, record), values.json);
        for (const p of chunk.problems) io.err(problemLine(p));
      },
      fromEnd ? { from: 'end', bytes: 0 } : { from: 'start' },
    );
  };
  const logs = () => adapter.eventLogs(cell.path, target.context.read());
  const followNew = async (fromEnd: boolean) => {
    for (const log of await logs().catch(() => [])) await follow(log, fromEnd);
  };
  await followNew(values['from-end']);
  // A cell written over whole (capabilities.finishedUnits): each finished unit once, as the file is rewritten.
  const finished = adapter.capabilities.finishedUnits;
  const units = finished
    ? new FinishedUnits(target.context, cell.path, finished, ({ unit, t, fields }) => print(io, cell.id, { episode: unit, seq: null, t, ev: finished.ev, fields, line: null, end: 0 }, values.json))
    : null;
  const lookAgain = () => void units?.look().catch((error: Error) => io.err(`${target.where}: ${error.message}`));
  await units?.look(values['from-end']);
  if (!units && (await logs()).length === 0) io.err(`${cell.name} (${cell.format}) writes no event log; cellwatch status shows its trials.`);

  const stopWatching = await target.context.watch(
    folder,
    ({ path }) => {
      if (path === cell.path) lookAgain();
      const file = follows.fileOf(path);
      if (file !== null && follows.route(file)) return;
      // A log that appeared after the start (a new episode) is followed from its first line.
      if (file?.endsWith('.jsonl')) void followNew(false);
      // The host's feed started again: anything may have changed while it was down.
      else if (file === null) {
        follows.pollAll();
        void followNew(false);
        lookAgain();
      }
    },
    (error) => io.err(`${target.where}: watching stopped: ${error.message}`),
  );
  // Every follower is polled as the place's presence says; new logs are looked for every 2 s.
  follows.startPolling((count) => {
    lookAgain();
    if (count % 8 === 0) void followNew(false);
  });
  await untilStopped(stop);
  await stopWatching();
  follows.close();
  await places.close();
  return 0;
}
