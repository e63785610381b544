import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { StreamEvent } from '../../../shared/cell-detail';
import { clockTime } from '../../../shared/model';
import { counted } from '../format';
import { useKey } from '../keys';
import { useFollow } from '../useFollow';
import { useVirtualRows } from '../cell-list/useVirtualRows';
import { useData } from '../context';
import { eventsToTranscript, hasConversation } from '../../../shared/episode-transcript';
import { Timeline } from './Timeline';
import { TranscriptItems } from './TranscriptView';

function summary(event: StreamEvent): string {
  const f = event.fields;
  if (typeof f.text === 'string') return f.text;
  if (typeof f.name === 'string') return `${f.name}${f.args ? ` ${JSON.stringify(f.args)}` : ''}${f.ok === false ? ' failed' : ''}${typeof f.frame === 'string' ? ` → ${f.frame}` : ''}`;
  return Object.entries(f)
    .filter(([k]) => k !== 'ev' && k !== 'type' && k !== 'call_id')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('  ');
}

const TONE: Record<string, string> = { throttle: 'amber', evaluate: 'ok', episode_end: 'grey', error: 'error' };

const clockOf = (event: StreamEvent) => (event.t === null ? '' : clockTime(event.t * 1000));

/** An event row's height in px, its border included (`.event-row`). */
const EVENT_ROW_PX = 21;

/**
 * How a stream's rows are drawn: each naming its episode (a log of several); a seq column where some event
 * has one, a time column where some event has one; the columns, the type's as wide as its longest name.
 */
interface RowLook {
  named: boolean;
  numbered: boolean;
  timed: boolean;
  columns: string;
}

/** An event type's column, in characters of the list's monospace: wide enough for `assessment_completed`, no wider. */
const TYPE_CH = { least: 8, most: 20 };

/** A time's width in characters as this machine's locale writes it ("22:58:58", "10:58:58 PM"). */
const clockChars = () => clockTime(new Date(2000, 0, 1, 22, 58, 58).getTime()).length;

function rowLook(events: readonly StreamEvent[]): RowLook {
  const named = events.some((e) => e.episode !== events[0]?.episode);
  let numbered = false;
  let mostSeq = 0;
  let timed = false;
  let longest = TYPE_CH.least;
  for (const e of events) {
    if (e.seq !== null) [numbered, mostSeq] = [true, Math.max(mostSeq, e.seq)];
    timed ||= e.t !== null;
    longest = Math.max(longest, Math.min(TYPE_CH.most, e.ev.length));
  }
  // Half a character more each: a name of exactly `longest` measured a fraction of a pixel over.
  const columns = [numbered && `${Math.max(3, String(mostSeq).length) + 0.5}ch`, timed && `${clockChars() + 0.5}ch`, `${longest + 0.5}ch`, 'minmax(0, 1fr)'].filter(Boolean).join(' ');
  return { named, numbered, timed, columns };
}

/** One event of the list: drawn again only when its event, or whether it is inspected, changes. */
const EventRow = memo(function EventRow({ event, inspected, look, onPick }: { event: StreamEvent; inspected: boolean; look: RowLook; onPick: (event: StreamEvent) => void }) {
  const { named, numbered, timed, columns } = look;
  return (
    <button className={`event-row${inspected ? ' cursor' : ''}`} style={{ gridTemplateColumns: columns }} aria-pressed={inspected} onClick={() => onPick(event)}>
      {numbered && <span className="event-seq">{event.seq ?? ''}</span>}
      {timed && <span className="event-time">{clockOf(event)}</span>}
      <span className={`event-type tone-${TONE[event.ev] ?? 'none'}`}>{event.ev}</span>
      <span className="event-text">{named ? `${event.episode}  ${summary(event)}` : summary(event)}</span>
    </button>
  );
});

/** An event whole: every field, pretty JSON, long text wrapped; its episode named where the log holds several. */
function Inspector({ event, named, onClose }: { event: StreamEvent; named: boolean; onClose: () => void }) {
  const { episode: _episode, ...fields } = event.fields;
  return (
    <section className="inspector" aria-label={`Event ${event.seq ?? ''} ${event.ev}`}>
      <div className="run-output-head">
        <span className="section-title">
          {event.ev}
          {named && ` of ${event.episode}`} · seq {event.seq ?? '–'} · {clockOf(event)} · line {event.line ?? '–'}
        </span>
        {event.t !== null && <span className="muted inspector-time">t {event.t} is {new Date(event.t * 1000).toISOString()}</span>}
        <button onClick={onClose} aria-label="Close the event">
          ×
        </button>
      </div>
      <pre className="code wrap">{JSON.stringify({ seq: event.seq, t: event.t, ev: event.ev, ...fields }, null, 2)}</pre>
    </section>
  );
}

/** Each frame file of an episode by its name, as the frames viewer lists them: the transcript shows a result's frame inline. */
function useFrameUrls(frames: { cellId: string; episode: string } | undefined, refresh: number): Map<string, string> {
  const { cell } = useData();
  const [urls, setUrls] = useState(new Map<string, string>());
  useEffect(() => {
    if (!frames) return;
    let current = true;
    cell.listFrames(frames.cellId, { kind: 'episode', episode: frames.episode }).then(
      (set) => current && setUrls(new Map(set.cameras.flatMap((c) => c.urls.map((url): [string, string] => [decodeURIComponent(url.split('/').pop() ?? ''), url])))),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [cell, frames?.cellId, frames?.episode, refresh]);
  return urls;
}

/** The episode as a conversation: the same transcript a rollout or a trial opens as, from its events. */
function Transcript({ events, onPick, frames }: { events: StreamEvent[]; onPick: (event: StreamEvent) => void; frames?: { cellId: string; episode: string } }) {
  const items = useMemo(() => eventsToTranscript(events), [events]);
  const urls = useFrameUrls(frames, items.filter((i) => i.frame).length);
  if (items.length === 0) return <p className="muted">No agent messages or tool calls in this stream.</p>;
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  return (
    <div className="transcript episode-transcript">
      <Timeline items={items} onPick={(index) => typeof items[index]?.seq === 'number' && bySeq.has(items[index].seq) && onPick(bySeq.get(items[index].seq) as StreamEvent)} />
      <TranscriptItems items={items} frameUrl={(frame) => urls.get(frame.split('/').pop() ?? '') ?? null} onPick={(seq) => bySeq.has(seq) && onPick(bySeq.get(seq) as StreamEvent)} />
    </div>
  );
}

/** The events of one stream: follows new ones until the user scrolls up; filter by type, search text. */
/**
 * `live`: new events may still come (an ended episode's stream is complete, so nothing is followed).
 * `onFrame`: an event that names a frame was picked (the frames seek to it).
 */
export function EventStream({
  events,
  startedMidFile,
  title,
  live,
  endedAs = 'ended',
  onFrame,
  inspect,
  frames,
}: {
  events: StreamEvent[];
  startedMidFile: boolean;
  title: string;
  live: boolean;
  /** What a stream that is not live says of itself: its run's state where the run did not finish (stopped). */
  endedAs?: string;
  onFrame?: (frame: string) => void;
  /** The inspected event's seq and where it goes when another is picked: held by the caller (the URL has it). */
  inspect?: { seq: number | null; set: (seq: number | null) => void };
  /** The episode whose frames the transcript shows inline. */
  frames?: { cellId: string; episode: string };
}) {
  const [ownSeq, setOwnSeq] = useState<number | null>(null);
  const [seq, setSeq] = inspect ? [inspect.seq, inspect.set] : [ownSeq, setOwnSeq];
  // An event without a seq (a rollout of a NeMo Gym log) is inspected here: nothing names it in the URL.
  const [unnumbered, setUnnumbered] = useState<StreamEvent | null>(null);
  const inspected = seq === null ? unnumbered : (events.find((e) => e.seq === seq) ?? null);
  const [transcript, setTranscript] = useState(false);
  // A log of rollouts, submissions or a ledger holds no messages or calls: it offers no transcript.
  const conversation = useMemo(() => hasConversation(events), [events]);
  const asTranscript = transcript && conversation;
  const pick = (event: StreamEvent) => {
    setSeq(event.seq);
    setUnnumbered(event.seq === null ? event : null);
    if (typeof event.fields.frame === 'string') onFrame?.(event.fields.frame);
  };
  // A cell's log holds several episodes' events: each row names its own. A log without seq or time
  // (a collection's rollouts; a record's events have no seq) has no column for them.
  const { named, numbered, timed, columns } = useMemo(() => rowLook(events), [events]);
  // One object while its values hold: every row is drawn again when it changes.
  const look = useMemo<RowLook>(() => ({ named, numbered, timed, columns }), [named, numbered, timed, columns]);
  // One handler for every row, so a row redraws only when its event or its being inspected changes.
  const picking = useRef(pick);
  picking.current = pick;
  const pickRef = useCallback((event: StreamEvent) => picking.current(event), []);
  const [types, setTypes] = useState<Set<string>>(new Set());
  const [search, setSearch] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  useKey('/', () => searchRef.current?.focus());

  const kinds = useMemo(() => [...new Set(events.map((e) => e.ev))].sort(), [events]);
  const shown = useMemo(() => {
    const needle = search.toLowerCase();
    return events.filter((e) => (types.size === 0 || types.has(e.ev)) && (!needle || `${e.ev} ${e.episode} ${JSON.stringify(e.fields)}`.toLowerCase().includes(needle)));
  }, [events, types, search]);

  // Only the rows on screen are drawn: a 4 MB tail holds tens of thousands, and following sets the scroll on every event.
  const rows = useVirtualRows(asTranscript ? 0 : shown.length, EVENT_ROW_PX);
  const { onScroll: followScroll, following, follow } = useFollow(shown, rows.ref);
  // Following, the window is the newest rows at once, not once the scroll to the end is measured.
  const [first, last] = following ? [Math.max(0, shown.length - (rows.last - rows.first)), shown.length] : [rows.first, rows.last];
  const toggle = (kind: string) =>
    setTypes((current) => {
      const next = new Set(current);
      if (next.has(kind)) next.delete(kind);
      else next.add(kind);
      return next;
    });

  return (
    <section className="event-stream" aria-label="Event stream">
      <div className="stream-head">
        <h2 className="section-title">{title}</h2>
        <input ref={searchRef} type="search" placeholder="Search events  /" aria-label="Search events" value={search} onChange={(e) => setSearch(e.target.value)} />
        {conversation && (
          <button aria-pressed={transcript} onClick={() => setTranscript(!transcript)} title="The agent's messages and tool calls as a conversation">
            Transcript
          </button>
        )}
        {live ? (
          <span className={`follow ${following ? 'on' : ''}`} role="status">
            {following ? '● following' : <button onClick={follow}>follow new events</button>}
          </span>
        ) : (
          <span className="follow" role="status">
            {endedAs} · {counted(events.length, 'event')}
          </span>
        )}
      </div>
      <div className="type-filter" aria-label="Event types">
        {kinds.map((kind) => (
          <button key={kind} aria-pressed={types.has(kind)} className={types.has(kind) ? 'on' : ''} onClick={() => toggle(kind)}>
            {kind}
          </button>
        ))}
      </div>
      <div
        className="stream-body"
        ref={rows.ref}
        onScroll={() => {
          rows.onScroll();
          followScroll();
        }}
        role="log"
        aria-label="Events"
      >
        {startedMidFile && <p className="muted">Showing the end of a long log.</p>}
        {asTranscript ? (
          <Transcript events={shown} onPick={pick} frames={frames} />
        ) : (
          <>
            <div style={{ height: first * EVENT_ROW_PX }} aria-hidden />
            {shown.slice(first, last).map((event, i) => (
              <EventRow key={`${event.line ?? 'x'}-${event.seq ?? ''}-${first + i}`} event={event} inspected={event === inspected} look={look} onPick={pickRef} />
            ))}
            <div style={{ height: (shown.length - last) * EVENT_ROW_PX }} aria-hidden />
          </>
        )}
        {shown.length === 0 && <p className="muted">{events.length ? 'No event matches.' : 'No events yet.'}</p>}
      </div>
      {inspected && (
        <Inspector
          event={inspected}
          named={named}
          onClose={() => {
            setSeq(null);
            setUnnumbered(null);
          }}
        />
      )}
    </section>
  );
}
