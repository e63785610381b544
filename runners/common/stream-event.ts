// A log's record as a viewer gets it (the window's stream, `tail`): its episode, sequence, time, event name
// and fields, as the log's format shows them.
import type { StreamEvent } from '../../shared/cell-detail';
import type { EventLog } from '../types';

/** A line of a log read as JSON: its 1-based line number (null mid-file), the byte offset past it, its value. */
export interface LogRecord {
  line: number | null;
  end: number;
  value: Record<string, unknown>;
}

/** A record of `log` as an event of its stream. */
export function streamEvent(log: EventLog, record: LogRecord): StreamEvent {
  const shown = log.shown?.(record.value);
  const { seq, t, ...fields } = shown?.fields ?? record.value;
  return {
    episode: shown?.episode ?? log.stream,
    seq: typeof seq === 'number' ? seq : null,
    t: typeof t === 'number' ? t : null,
    ev: log.eventName(record.value),
    line: record.line,
    end: record.end,
    fields,
  };
}
