import { useState } from 'react';
import type { RecordProgress } from '../../../shared/cell-detail';
import { useData } from '../context';

/** Records the comparison to mp4: its length, a progress bar, then a link to the file or the reason it failed. */
export function Recorder({ slots, seed, seconds, fps }: { slots: string; seed: string; seconds: number; fps: number }) {
  const data = useData();
  const [length, setLength] = useState(seconds.toFixed(1));
  const [progress, setProgress] = useState<RecordProgress | null>(null);
  const start = async () => {
    setProgress({ id: '', fraction: 0 });
    try {
      await data.record(slots, seed, Number(length), fps, setProgress);
    } catch (error) {
      setProgress({ id: '', fraction: 0, error: error instanceof Error ? error.message : String(error) });
    }
  };
  const busy = progress !== null && !progress.url && !progress.error;
  return (
    <div className="recorder">
      <label>
        Length <input aria-label="Recording length (s)" value={length} onChange={(e) => setLength(e.target.value)} size={5} /> s
      </label>
      <button onClick={() => void start()} disabled={busy || !(Number(length) > 0)}>
        {busy ? 'Recording…' : 'Record mp4'}
      </button>
      {progress && !progress.error && (
        <span className="bar record-bar" role="progressbar" aria-label="Recording" aria-valuenow={Math.round(progress.fraction * 100)} aria-valuemin={0} aria-valuemax={100}>
          <span className="fill" style={{ width: `${progress.fraction * 100}%` }} />
        </span>
      )}
      {progress?.url && (
        <a href={progress.url} target="_blank" rel="noreferrer" title={progress.file}>
          open the recording ({progress.file?.split('/').at(-1)})
        </a>
      )}
      {progress?.note && <span className="muted">{progress.note}</span>}
      {progress?.error && (
        <span className="tone-fail" role="alert">
          {progress.error}
        </span>
      )}
      {/* It plays where it was made. */}
      {progress?.url && <video className="recording" src={progress.url} controls preload="metadata" aria-label={`Recording ${progress.file?.split('/').at(-1) ?? ''}`} />}
    </div>
  );
}
