import { useEffect, useState } from 'react';
import type { ProgramSnapshot } from '../../../shared/cell-detail';
import { fetchCellText } from './cellFile';
import { counted } from '../format';
import { lineDiff } from './lineDiff';

/** What the program panel shows: one program's source, or the change from one program to another. */
export type ProgramShown = { kind: 'source'; program: ProgramSnapshot } | { kind: 'diff'; from: ProgramSnapshot; to: ProgramSnapshot };

/** A file's text, or why it cannot be shown (one file that cannot be read leaves the others shown). */
async function fetchText(cellId: string, path: string): Promise<string | { error: string }> {
  const read = await fetchCellText(cellId, path);
  return 'text' in read ? read.text : { error: `${path} could not be read (${read.status === 404 ? 'not a text file, or gone' : (read.status ?? 'no answer')})` };
}

/** Each file name of the programs shown, with its path in each (null where that program has no such file). */
function filePairs(shown: ProgramShown): { name: string; from: string | null; to: string | null }[] {
  if (shown.kind === 'source') return shown.program.files.map((f) => ({ name: f.name, from: null, to: f.path }));
  const names = [...new Set([...shown.from.files, ...shown.to.files].map((f) => f.name))].sort();
  const pathIn = (program: ProgramSnapshot, name: string) => program.files.find((f) => f.name === name)?.path ?? null;
  return names.map((name) => ({ name, from: pathIn(shown.from, name), to: pathIn(shown.to, name) }));
}

function FileDiff({ name, before, after }: { name: string; before: string | null; after: string | null }) {
  const change = before === null ? ' (added)' : after === null ? ' (removed)' : before === after ? ' (unchanged)' : '';
  return (
    <>
      <div className="code-file">
        {name}
        {change}
      </div>
      {before !== after && (
        <pre className="code diff">
          {lineDiff(before ?? '', after ?? '').map((line, i) => (
            <div key={i} className={`diff-${line.kind}`}>
              {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
              {line.text}
            </div>
          ))}
        </pre>
      )}
    </>
  );
}

export function ProgramSource({ cellId, shown, onClose }: { cellId: string; shown: ProgramShown; onClose: () => void }) {
  const pairs = filePairs(shown);
  const paths = pairs.flatMap((p) => [p.from, p.to]).filter((p): p is string => p !== null);
  const key = paths.join('\n');
  const [loaded, setLoaded] = useState<{ key: string; texts: Map<string, string | { error: string }> } | null>(null);
  useEffect(() => {
    let current = true;
    const wanted = key.split('\n');
    void Promise.all(wanted.map((path) => fetchText(cellId, path))).then((texts) => current && setLoaded({ key, texts: new Map(wanted.map((path, i) => [path, texts[i] ?? { error: `${path} could not be read` }])) }));
    return () => {
      current = false;
    };
  }, [cellId, key]);
  // Only what was fetched for what is shown now: the first render after a change still holds the last.
  const texts = loaded?.key === key ? loaded.texts : null;
  const read = (path: string | null) => (path === null ? undefined : texts?.get(path));
  const text = (path: string | null) => {
    const found = read(path);
    return typeof found === 'string' ? found : null;
  };
  const errors = paths.flatMap((path) => {
    const found = read(path);
    return found !== undefined && typeof found !== 'string' ? [found.error] : [];
  });
  const single = shown.kind === 'source' && shown.program.files.length === 1 ? shown.program.files[0] : undefined;
  const title = shown.kind === 'source' ? (single?.path ?? `${shown.program.id} (${counted(shown.program.files.length, 'file')})`) : `${shown.from.id} → ${shown.to.id}`;
  const label = shown.kind === 'source' ? `Source of ${shown.program.id}` : `Changes from ${shown.from.id} to ${shown.to.id}`;
  return (
    <section className="policy-source" aria-label={label}>
      <div className="run-output-head">
        <span className="section-title">{title}</span>
        <button onClick={onClose} aria-label="Close the program panel">
          ×
        </button>
      </div>
      {errors.map((error) => (
        <p key={error} className="paired-error">
          {error}
        </p>
      ))}
      {texts &&
        pairs.filter((pair) => ![pair.from, pair.to].some((path) => typeof read(path) === 'object')).map((pair) =>
          shown.kind === 'source' ? (
            <div key={pair.name}>
              {!single && <div className="code-file">{pair.name}</div>}
              <pre className="code">{text(pair.to)}</pre>
            </div>
          ) : (
            <FileDiff key={pair.name} name={pair.name} before={text(pair.from)} after={text(pair.to)} />
          ),
        )}
    </section>
  );
}
