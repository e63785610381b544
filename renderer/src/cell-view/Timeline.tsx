import { largest } from '../../../shared/arrays';
import type { TranscriptItem } from '../../../shared/cell-detail';
import { counted } from '../format';

type Lane = 'tools' | 'model' | 'pauses';

const LANES: { lane: Lane; label: string }[] = [
  { lane: 'model', label: 'model' },
  { lane: 'tools', label: 'tools' },
  { lane: 'pauses', label: 'pauses' },
];

/** Which lane an item is drawn in, and whether it failed; null: not drawn. */
function laneOf(item: TranscriptItem): { lane: Lane; failed: boolean; label: string } | null {
  if (item.kind === 'call') return { lane: 'tools', failed: /"ok": false|error/i.test(item.output ?? ''), label: item.name };
  if (item.kind === 'message' && item.role !== 'tool' && item.role !== 'user') return { lane: 'model', failed: false, label: `${item.role} message` };
  if (item.kind === 'other' && item.type === 'throttle') return { lane: 'pauses', failed: false, label: 'throttle pause' };
  if (item.kind === 'outcome' && /^error/.test(item.text)) return { lane: 'model', failed: true, label: item.text };
  return null;
}

const seconds = (s: number) => (s >= 100 ? `${s.toFixed(0)} s` : `${s.toFixed(1)} s`);

/**
 * A unit's model and tool calls and its throttle pauses as bars on its one time axis: each as long as it took
 * (a tick where that is not known), failures in red; a click (or Enter) goes to its item in the transcript.
 */
export function Timeline({ items, current, onPick }: { items: TranscriptItem[]; current?: number; onPick: (index: number) => void }) {
  const drawn = items.flatMap((item, index) => {
    const lane = laneOf(item);
    return lane && item.offsetS !== undefined ? [{ index, item, ...lane, start: item.offsetS, end: item.offsetS + (item.durationS ?? 0) }] : [];
  });
  if (drawn.length < 2) return null;
  const span = largest(drawn.map((d) => d.end), 0.001);
  // What the tools ran, where their durations are known (an ATIF trajectory says only when each was called).
  const timed = drawn.filter((d) => d.lane === 'tools' && d.item.durationS !== undefined);
  const busy = timed.reduce((sum, d) => sum + (d.item.durationS ?? 0), 0);
  return (
    <figure className="timeline" aria-label="Timeline">
      <figcaption className="muted">
        Timeline: {counted(drawn.length, 'call or pause', 'calls and pauses')} over {seconds(span)}
        {timed.length > 0 && `; tools ran ${seconds(busy)} of it`}
      </figcaption>
      {LANES.map(({ lane, label }) => (
        <div key={lane} className="timeline-lane" role="group" aria-label={`Timeline ${label}`}>
          <span className="timeline-label muted">{label}</span>
          <span className="timeline-track">
            {drawn
              .filter((d) => d.lane === lane)
              .map((d) => (
                <button
                  key={d.index}
                  className={`timeline-bar timeline-${lane}${d.failed ? ' timeline-failed' : ''}${d.index === current ? ' current' : ''}`}
                  style={{ left: `${(d.start / span) * 100}%`, width: `max(3px, ${((d.end - d.start) / span) * 100}%)` }}
                  title={`${d.label} at +${seconds(d.start)}${d.item.durationS !== undefined ? `, ${seconds(d.item.durationS)}` : ''}`}
                  aria-label={`${d.label} at +${seconds(d.start)}`}
                  onClick={() => onPick(d.index)}
                />
              ))}
          </span>
        </div>
      ))}
      <div className="timeline-axis muted" aria-hidden>
        <span>0</span>
        <span>{seconds(span / 2)}</span>
        <span>{seconds(span)}</span>
      </div>
    </figure>
  );
}
