import { useEffect, useState } from 'react';
import { whole } from '../format';
import type { EpisodeRow } from '../../../shared/cell-detail';
import { fetchCellText } from './cellFile';
import { useCell } from './context';
import { useApp } from '../context';

/** The most of a file shown: a trial.log can run to megabytes, and its end says how it went. */
const SHOWN_BYTES = 256 * 1024;

/** A text file of the episode: its end, or why it cannot be shown (absent: not written, or not yet). */
function EpisodeFile({ cellId, path }: { cellId: string; path: string }) {
  const [text, setText] = useState<{ path: string; shown: string; cut: number } | { path: string; missing: string } | null>(null);
  useEffect(() => {
    let current = true;
    void fetchCellText(cellId, path).then((read) => {
      if (!current) return;
      if ('text' in read) setText({ path, shown: read.text.slice(-SHOWN_BYTES), cut: Math.max(0, read.text.length - SHOWN_BYTES) });
      else setText({ path, missing: read.status === 404 ? `${path} is not there (not written, or not yet)` : `${path} could not be read (${read.status ?? 'no answer'})` });
    });
    return () => {
      current = false;
    };
  }, [cellId, path]);
  if (!text || text.path !== path) return <p className="muted">Reading {path}…</p>;
  if ('missing' in text) return <p className="muted">{text.missing}</p>;
  return (
    <>
      {text.cut > 0 && <p className="muted">its last {SHOWN_BYTES / 1024} KB; {whole(text.cut)} characters before them not shown</p>}
      <pre className="code wrap" aria-label={`Lines of ${path}`}>
        {text.shown}
      </pre>
    </>
  );
}

/** An episode without a trajectory, as its files say it: its facts, and its text files one at a time. */
export function EpisodeFacts({ cellId, row }: { cellId: string; row: EpisodeRow }) {
  const files = row.files ?? [];
  const [picked, setPicked] = useState<string | null>(null);
  const transcripts = useCell((s) => s.detail?.summary.capabilities.transcripts ?? false);
  const setCellPlace = useApp((s) => s.setCellPlace);
  const file = picked && files.includes(picked) ? picked : null;
  return (
    <section className="episode-facts" aria-label={`Episode ${row.id}`}>
      <h2 className="section-title">{row.id}</h2>
      {row.facts && row.facts.length > 0 && (
        <dl className="facts">
          {row.facts.map((fact, i) => (
            <div key={i}>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {files.length > 0 && (
        <div className="type-filter" role="group" aria-label="Files">
          {files.map((f) => (
            <button key={f} aria-pressed={f === file} className={f === file ? 'on' : ''} onClick={() => setPicked(f === file ? null : f)} title={f}>
              {f.split('/').slice(-2).join('/')}
            </button>
          ))}
        </div>
      )}
      {transcripts && (
        <button onClick={() => setCellPlace({ tab: 'transcript', episode: row.id })} aria-label={`Open the transcript of ${row.id}`}>
          Transcript
        </button>
      )}
      {file && <EpisodeFile key={file} cellId={cellId} path={file} />}
    </section>
  );
}
