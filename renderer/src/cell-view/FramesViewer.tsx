import { memo, useCallback, useEffect, useState } from 'react';
import type { FrameSet, FrameSource } from '../../../shared/cell-detail';
import { useData } from '../context';
import { useKey } from '../keys';
import { largest } from '../../../shared/arrays';
import { asError } from '../../../shared/errors';
import { CallFailed } from '../CallFailed';

/** A scrubber and a play button over one set of frames; every camera shows the same frame index. */
/** `live`: the episode still runs, so frames may yet come: the viewer follows the newest until the user moves it. */
/** `seek`: a frame's file an event named (`frames/000012.png`): shown at once. */
/** Memoized: drawn again when a frame is written (refreshKey) or picked, not for each event beside it. */
export const FramesViewer = memo(function FramesViewer({ cellId, source, refreshKey, live, seek }: { cellId: string; source: FrameSource; refreshKey: number; live: boolean; seek?: { frame: string } | null }) {
  const { cell } = useData();
  const [frames, setFrames] = useState<FrameSet | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [following, setFollowing] = useState(true);

  useEffect(() => {
    let current = true;
    cell.listFrames(cellId, source).then(
      (set) => current && (setFrames(set), setError(null)),
      (e: unknown) => current && setError(asError(e)),
    );
    return () => {
      current = false;
    };
  }, [cell, cellId, source, refreshKey]);

  const count = largest(frames?.cameras.map((c) => c.urls.length) ?? [], 0);
  const atLiveEdge = live && following;
  /** A frame the user moved to: the viewer follows again only from the newest. */
  const pick = useCallback(
    (at: number) => {
      setPlaying(false);
      setFollowing(at >= count - 1);
      setIndex(Math.max(0, Math.min(count - 1, at)));
    },
    [count],
  );
  useEffect(() => {
    if (!seek || !frames) return;
    const name = `/${seek.frame.split('/').at(-1) ?? ''}`;
    const at = largest(frames.cameras.map((c) => c.urls.findIndex((url) => decodeURIComponent(url).endsWith(name))), -1);
    if (at < 0) return;
    setPlaying(false);
    setFollowing(false);
    setIndex(at);
  }, [seek, frames]);
  useEffect(() => setIndex((i) => (atLiveEdge ? Math.max(0, count - 1) : Math.min(i, Math.max(0, count - 1)))), [count, atLiveEdge]);
  useEffect(() => {
    if (!playing || !frames || count === 0) return;
    const timer = setInterval(() => setIndex((i) => (i + 1 >= count ? (setPlaying(false), i) : i + 1)), 1000 / frames.fps);
    return () => clearInterval(timer);
  }, [playing, frames, count]);

  const play = useCallback(() => (setFollowing(false), setPlaying((p) => !p)), []);
  useKey(' ', play);
  useKey('[', useCallback(() => pick(index - 1), [pick, index]));
  useKey(']', useCallback(() => pick(index + 1), [pick, index]));

  if (error) return <CallFailed what="Frames" error={error} />;
  if (!frames) return null;
  if (count === 0 && !frames.cameras.some((c) => c.video)) return <p className="muted">{live ? 'No frames for this episode yet.' : 'This episode wrote no frames.'}</p>;
  return (
    <section className="frames" aria-label="Frames">
      <div className="cameras">
        {frames.cameras.map((camera) => (
          <figure key={camera.name} className="camera">
            {camera.video ? (
              <video src={camera.video} controls muted />
            ) : (
              <img src={camera.urls[Math.min(index, camera.urls.length - 1)]} alt={`${camera.name} frame ${index + 1}`} width={168} height={168} />
            )}
            <figcaption>{camera.name}</figcaption>
          </figure>
        ))}
      </div>
      {count > 0 && (
        <div className="transport">
          <button onClick={play} aria-label={playing ? 'Pause' : 'Play'}>
            {playing ? '❚❚' : '▶'}
          </button>
          <button onClick={() => pick(index - 1)} aria-label="Previous frame">
            ◀
          </button>
          <button onClick={() => pick(index + 1)} aria-label="Next frame">
            ▶▏
          </button>
          <input type="range" min={0} max={count - 1} value={index} onChange={(e) => pick(Number(e.target.value))} aria-label="Frame" />
          <span className="frame-count">
            {index + 1} / {count} · {frames.fps} fps
          </span>
          {live && (
            <button className={`live-toggle${atLiveEdge ? ' on' : ''}`} aria-pressed={atLiveEdge} onClick={() => pick(count - 1)} title={atLiveEdge ? 'Showing each new frame as it is written' : 'Follow the newest frame again'}>
              {atLiveEdge ? '● live' : 'go live'}
            </button>
          )}
        </div>
      )}
    </section>
  );
});
