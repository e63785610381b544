import { useCallback, useEffect, useRef, useState } from 'react';
import type { Comparison } from '../../../shared/cell-detail';
import { Recorder } from './Recorder';
import { useApp, useData } from '../context';
import { useKey } from '../keys';
import { largest } from '../../../shared/arrays';
import { asError } from '../../../shared/errors';
import { CallFailed } from '../CallFailed';

const SPEEDS = [0.25, 0.5, 1, 2, 4];
const OUTCOME_TONE = { success: 'ok', failure: 'fail', unknown: 'grey' } as const;

/**
 * One clock for every slot: play, pause, speed, scrub, step. A shorter slot holds its last frame. Its
 * speed, and the time shown while paused, are the link's (`speed`, `t`).
 */
function usePlayback(frames: number, fps: number) {
  const time = useApp((s) => s.compareTime);
  const speed = useApp((s) => s.compareSpeed);
  const setPlayback = useApp((s) => s.setComparePlayback);
  const [index, setIndex] = useState(() => Math.round(time * fps));
  const [playing, setPlaying] = useState(false);
  const setSpeed = useCallback((next: number) => setPlayback({ speed: next }), [setPlayback]);
  // The link's time when it changes under a paused clock (Back, another seed); the clock's once it stops.
  useEffect(() => setIndex(Math.round(time * fps)), [time, fps]);
  useEffect(() => {
    if (!playing) setPlayback({ time: index / fps });
  }, [playing, index, fps, setPlayback]);
  useEffect(() => {
    if (frames > 0) setIndex((i) => Math.min(i, frames - 1));
  }, [frames]);
  useEffect(() => {
    if (!playing || frames === 0) return;
    const timer = setInterval(() => setIndex((i) => (i + 1 >= frames ? (setPlaying(false), i) : i + 1)), 1000 / (fps * speed));
    return () => clearInterval(timer);
  }, [playing, frames, fps, speed]);
  const faster = useCallback((step: number) => setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, SPEEDS.indexOf(speed) + step))] ?? 1), [speed, setSpeed]);
  useKey(' ', useCallback(() => setPlaying((p) => !p), []));
  useKey('[', useCallback(() => (setPlaying(false), setIndex((i) => Math.max(0, i - 1))), []));
  useKey(']', useCallback(() => (setPlaying(false), setIndex((i) => Math.min(frames - 1, i + 1))), [frames]));
  useKey(',', useCallback(() => faster(-1), [faster]));
  useKey('.', useCallback(() => faster(1), [faster]));
  return { index, setIndex, playing, setPlaying, speed, setSpeed };
}

export function CompareView() {
  const { stats } = useData();
  const initial = useApp((s) => s.compareSlots);
  const initialSeed = useApp((s) => s.compareSeed);
  const compare = useApp((s) => s.compare);
  const [slots, setSlots] = useState(initial);
  const [seed, setSeed] = useState<string | undefined>(undefined);
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const [error, setError] = useState<Error | null>(null);

  /** What was last asked for: the link follows each load, and must not load it again. */
  const asked = useRef('');
  const load = useCallback(
    (text: string, chosen?: string) => {
      if (!text.trim()) return;
      asked.current = `${text}\u0000${chosen ?? ''}`;
      stats.compare(text, ...(chosen ? [chosen] : [])).then(
        (result) => {
          setComparison(result);
          setSeed(result.seed);
          setError(null);
          // The link says what is shown: the slots as typed, the seed as chosen.
          compare(text, chosen ?? null);
        },
        (e: unknown) => (setComparison(null), setError(asError(e))),
      );
    },
    [stats, compare],
  );
  useEffect(() => {
    if (asked.current !== `${initial}\u0000${initialSeed ?? ''}`) load(initial, initialSeed ?? undefined);
  }, [load, initial, initialSeed]);

  const frames = largest(comparison?.slots.flatMap((s) => s.frames.cameras.map((c) => c.urls.length)) ?? [], 0);
  const fps = comparison?.slots.find((s) => s.source !== null)?.frames.fps ?? 25;
  const framesLacking = comparison?.slots.filter((s) => s.source === null).map((s) => s.slot) ?? [];
  const clock = usePlayback(frames, fps);

  return (
    <section className="compare-view" aria-label="Compare">
      <form
        className="compare-form"
        onSubmit={(e) => {
          e.preventDefault();
          load(slots, seed);
        }}
      >
        <input aria-label="Slots" value={slots} onChange={(e) => setSlots(e.target.value)} placeholder="session:version, … (up to six; vNNN, NNN, last, submission)" spellCheck={false} />
        <select aria-label="Seed" value={seed ?? ''} onChange={(e) => (setSeed(e.target.value), load(slots, e.target.value))} disabled={!comparison}>
          {comparison?.seeds.map((s) => (
            <option key={s} value={s}>
              seed {s}
              {comparison.common.includes(s) ? '' : ' · not in every slot'}
            </option>
          ))}
        </select>
        <button type="submit">Show</button>
      </form>
      {error && <CallFailed what="The comparison" error={error} />}
      {!comparison && !error && <p className="empty-note">Type two to six slots, or tick versions in a cell's Versions tab.</p>}
      {comparison && (
        <>
          <div className="transport">
            <button onClick={() => clock.setPlaying((p) => !p)} aria-label={clock.playing ? 'Pause' : 'Play'}>
              {clock.playing ? '❚❚' : '▶'}
            </button>
            <button onClick={() => clock.setIndex((i) => Math.max(0, i - 1))} aria-label="Previous frame">
              ◀
            </button>
            <button onClick={() => clock.setIndex((i) => Math.min(frames - 1, i + 1))} aria-label="Next frame">
              ▶▏
            </button>
            <input type="range" min={0} max={Math.max(0, frames - 1)} value={clock.index} onChange={(e) => (clock.setPlaying(false), clock.setIndex(Number(e.target.value)))} aria-label="Frame" />
            <select aria-label="Speed" value={clock.speed} onChange={(e) => clock.setSpeed(Number(e.target.value))}>
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}x
                </option>
              ))}
            </select>
            <span className="frame-count">
              {clock.index + 1} / {frames} · {(clock.index / fps).toFixed(2)} s
            </span>
          </div>
          <div className="slots">
            {comparison.slots.map((slot) => (
              <figure key={slot.slot} className="slot" aria-label={`${slot.session} ${slot.version}`}>
                <figcaption>
                  <strong>{slot.session}</strong> {slot.version} · seed {comparison.seed} ·{' '}
                  <span className={`pill tone-${OUTCOME_TONE[slot.outcome]}`}>{slot.outcome}</span> <span className="muted">{slot.source}</span>
                </figcaption>
                {slot.source === null && (
                  <p className="no-frames">
                    no frames for this seed{slot.seedsWithFrames.length ? `; it has frames for seed ${slot.seedsWithFrames.join(', ')}` : ''}
                  </p>
                )}
                <div className="cameras">
                  {slot.frames.cameras.map((camera) => (
                    <div key={camera.name} className="camera">
                      {camera.video ? (
                        <video src={camera.video} muted />
                      ) : (
                        <img src={camera.urls[Math.min(clock.index, camera.urls.length - 1)]} alt={`${slot.session} ${slot.version} ${camera.name}`} width={168} height={168} />
                      )}
                      <span className="camera-name">{camera.name}</span>
                    </div>
                  ))}
                </div>
              </figure>
            ))}
          </div>
          {/* A recording belongs to the slots and seed it was made of: another choice starts afresh. */}
          {framesLacking.length === 0 ? (
            <Recorder key={`${slots}|${comparison.seed}`} slots={slots} seed={comparison.seed} seconds={frames / fps} fps={fps} />
          ) : (
            <p className="muted">
              To record, choose a seed every slot has frames for ({comparison.common.join(', ') || 'none'}): {framesLacking.join(', ')} has none for seed {comparison.seed}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
