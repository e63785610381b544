import { useMemo, useRef, useState } from 'react';
import type { StreamEvent } from '../../../shared/cell-detail';
import { useKey } from '../keys';
import { useFollow } from '../useFollow';

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

const clockOf = (event: StreamEvent) => (event.t === null ? '' : new Date(event.t * 1000).toLocaleTimeString([], { hourCycle: 'h23' }));

/** An event whole: every field, pretty JSON, long text wrapped. */
function Inspector({ event, onClose }: { event: StreamEvent; onClose: () => void }) {
  const { episode: _episode, ...fields } = event.fields;
  return (
    <section className="inspector" aria-label={`Event ${event.seq ?? ''} ${event.ev}`}>
      <div className="run-output-head">
        <span className="section-title">
          {event.ev} · seq {event.seq ?? '–'} · {clockOf(event)} · line {event.line ?? '–'}
        </span>
        <button onClick={onClose} aria-label="Close the event">
          ×
        </button>
      </div>
      <pre className="code wrap">{JSON.stringify({ seq: event.seq, t: event.t, ev: event.ev, ...fields }, null, 2)}</pre>
    </section>
  );
}

/** The episode as a conversation: what the agent said, the tools it called, and what came back. */
function Transcript({ events, onPick }: { events: StreamEvent[]; onPick: (event: StreamEvent) => void }) {
  const turns = events.filter((e) => e.ev === 'agent_message' || e.ev === 'tool_call' || e.ev === 'tool_result');
  if (turns.length === 0) return <p className="muted">No agent messages or tool calls in this stream.</p>;
  return (
    <div className="transcript">
      {turns.map((event, i) => (
        <button key={`${event.line ?? 'x'}-${i}`} className={`turn turn-${event.ev}`} onClick={() => onPick(event)}>
          <span className="turn-who">{event.ev === 'agent_message' ? 'agent' : event.ev === 'tool_call' ? `calls ${String(event.fields.name ?? 'a tool')}` : 'result'}</span>
          <span className="turn-text">{event.ev === 'tool_call' ? JSON.stringify(event.fields.args ?? {}) : summary(event)}</span>
        </button>
      ))}
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
  onFrame,
  inspect,
}: {
  events: StreamEvent[];
  startedMidFile: boolean;
  title: string;
  live: boolean;
  onFrame?: (frame: string) => void;
  /** The inspected event's seq and where it goes when another is picked: held by the caller (the URL has it). */
  inspect?: { seq: number | null; set: (seq: number | null) => void };
}) {
  const [ownSeq, setOwnSeq] = useState<number | null>(null);
  const [seq, setSeq] = inspect ? [inspect.seq, inspect.set] : [ownSeq, setOwnSeq];
  const inspected = seq === null ? null : (events.find((e) => e.seq === seq) ?? null);
  const [transcript, setTranscript] = useState(false);
  const pick = (event: StreamEvent) => {
    setSeq(event.seq);
    if (typeof event.fields.frame === 'string') onFrame?.(event.fields.frame);
  };
  const [types, setTypes] = useState<Set<string>>(new Set());
  const [search, setSearch] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  useKey('/', () => searchRef.current?.focus());

  const kinds = useMemo(() => [...new Set(events.map((e) => e.ev))].sort(), [events]);
  const shown = useMemo(() => {
    const needle = search.toLowerCase();
    return events.filter((e) => (types.size === 0 || types.has(e.ev)) && (!needle || `${e.ev} ${JSON.stringify(e.fields)}`.toLowerCase().includes(needle)));
  }, [events, types, search]);

  const { ref: list, onScroll, following, follow } = useFollow<HTMLDivElement>(shown);
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
        <button aria-pressed={transcript} onClick={() => setTranscript(!transcript)} title="The agent's messages and tool calls as a conversation">
          Transcript
        </button>
        {live ? (
          <span className={`follow ${following ? 'on' : ''}`} role="status">
            {following ? '● following' : <button onClick={follow}>follow new events</button>}
          </span>
        ) : (
          <span className="follow" role="status">
            ended · {events.length} events
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
      <div className="stream-body" ref={list} onScroll={onScroll} role="log" aria-label="Events">
        {startedMidFile && <p className="muted">Showing the end of a long log.</p>}
        {transcript ? (
          <Transcript events={shown} onPick={pick} />
        ) : (
          shown.map((event, i) => (
            <button
              key={`${event.line ?? 'x'}-${event.seq ?? i}-${i}`}
              className={`event-row${event === inspected ? ' cursor' : ''}`}
              aria-pressed={event === inspected}
              onClick={() => pick(event)}
            >
              <span className="event-seq">{event.seq ?? ''}</span>
              <span className="event-time">{clockOf(event)}</span>
              <span className={`event-type tone-${TONE[event.ev] ?? 'none'}`}>{event.ev}</span>
              <span className="event-text">{summary(event)}</span>
            </button>
          ))
        )}
        {shown.length === 0 && <p className="muted">{events.length ? 'No event matches.' : 'No events yet.'}</p>}
      </div>
      {inspected && <Inspector event={inspected} onClose={() => setSeq(null)} />}
    </section>
  );
}
