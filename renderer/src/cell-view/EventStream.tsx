import { useEffect, useMemo, useRef, useState } from 'react';
import type { StreamEvent } from '../../../shared/cell-detail';
import { useKey } from '../keys';

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

/** The events of one stream: follows new ones until the user scrolls up; filter by type, search text. */
/** `live`: new events may still come (an ended episode's stream is complete, so nothing is followed). */
export function EventStream({ events, startedMidFile, title, live }: { events: StreamEvent[]; startedMidFile: boolean; title: string; live: boolean }) {
  const [types, setTypes] = useState<Set<string>>(new Set());
  const [search, setSearch] = useState('');
  const [following, setFollowing] = useState(true);
  const list = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  useKey('/', () => searchRef.current?.focus());

  const kinds = useMemo(() => [...new Set(events.map((e) => e.ev))].sort(), [events]);
  const shown = useMemo(() => {
    const needle = search.toLowerCase();
    return events.filter((e) => (types.size === 0 || types.has(e.ev)) && (!needle || `${e.ev} ${JSON.stringify(e.fields)}`.toLowerCase().includes(needle)));
  }, [events, types, search]);

  useEffect(() => {
    if (following && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [shown, following]);

  const onScroll = () => {
    const el = list.current;
    if (el) setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight < 8);
  };
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
        {live ? (
          <span className={`follow ${following ? 'on' : ''}`} role="status">
            {following ? '● following' : <button onClick={() => setFollowing(true)}>follow new events</button>}
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
        {shown.map((event, i) => (
          <div key={`${event.line ?? 'x'}-${event.seq ?? i}-${i}`} className="event-row">
            <span className="event-seq">{event.seq ?? ''}</span>
            <span className="event-time">{event.t === null ? '' : new Date(event.t * 1000).toLocaleTimeString([], { hourCycle: 'h23' })}</span>
            <span className={`event-type tone-${TONE[event.ev] ?? 'none'}`}>{event.ev}</span>
            <span className="event-text">{summary(event)}</span>
          </div>
        ))}
        {shown.length === 0 && <p className="muted">{events.length ? 'No event matches.' : 'No events yet.'}</p>}
      </div>
    </section>
  );
}
