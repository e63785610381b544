import { useEffect, useState } from 'react';
import { lineDiff } from './lineDiff';

/** What the policy panel shows: one version's source, or the change from one version to another. */
export type PolicyShown = { kind: 'source'; version: string } | { kind: 'diff'; from: string; to: string };

/** A policy file of the cell, as the app's media route serves it (text/plain, never run). */
function policyUrl(cellId: string, version: string): string {
  return `media/${encodeURIComponent(cellId)}/policies/${version}.py`;
}

async function fetchPolicy(cellId: string, version: string): Promise<string> {
  const response = await fetch(policyUrl(cellId, version));
  if (!response.ok) throw new Error(`policies/${version}.py could not be read (${response.status})`);
  return response.text();
}

export function PolicySource({ cellId, shown, onClose }: { cellId: string; shown: PolicyShown; onClose: () => void }) {
  const [loaded, setLoaded] = useState<{ key: string; texts: string[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const versions = shown.kind === 'source' ? [shown.version] : [shown.from, shown.to];
  const key = versions.join(' ');
  useEffect(() => {
    let current = true;
    setError(null);
    Promise.all(key.split(' ').map((v) => fetchPolicy(cellId, v))).then(
      (texts) => current && setLoaded({ key, texts }),
      (failed: Error) => current && setError(failed.message),
    );
    return () => {
      current = false;
    };
  }, [cellId, key]);
  // Only what was fetched for what is shown now: the first render after a change still holds the last.
  const texts = loaded?.key === key ? loaded.texts : null;
  const title = shown.kind === 'source' ? `policies/${shown.version}.py` : `${shown.from} → ${shown.to}`;
  return (
    <section className="policy-source" aria-label={shown.kind === 'source' ? `Source of ${shown.version}` : `Changes from ${shown.from} to ${shown.to}`}>
      <div className="run-output-head">
        <span className="section-title">{title}</span>
        <button onClick={onClose} aria-label="Close the policy panel">
          ×
        </button>
      </div>
      {error && <p className="paired-error">{error}</p>}
      {texts && shown.kind === 'source' && <pre className="code">{texts[0]}</pre>}
      {texts && shown.kind === 'diff' && (
        <pre className="code diff">
          {lineDiff(texts[0] as string, texts[1] as string).map((line, i) => (
            <div key={i} className={`diff-${line.kind}`}>
              {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
              {line.text}
            </div>
          ))}
        </pre>
      )}
    </section>
  );
}
