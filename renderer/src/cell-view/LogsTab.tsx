import { useEffect, useMemo, useRef, useState } from 'react';
import { LOG_FILES, type LogFile } from '../../../shared/contract';
import { useData } from '../context';
import { counted, whole } from '../format';
import { useKey } from '../keys';
import { useFollow } from '../useFollow';
import { asError } from '../../../shared/errors';
import { CallFailed } from '../CallFailed';

/** How often an open log is read on: its new lines are on screen within this. */
const POLL_MS = 500;
/** Lines kept on screen: the newest. */
const MAX_LINES = 20_000;

/** Which of the cell's text logs exist, asked once when the tab opens. */
function useLogFiles(cellId: string): LogFile[] | null {
  const { cell } = useData();
  const [files, setFiles] = useState<LogFile[] | null>(null);
  useEffect(() => {
    let current = true;
    Promise.all(LOG_FILES.map((file) => cell.readLog(cellId, file, 0).then((chunk) => (chunk ? file : null), () => null))).then(
      (found) => current && setFiles(found.filter((f): f is LogFile => f !== null)),
    );
    return () => {
      current = false;
    };
  }, [cell, cellId]);
  return files;
}

/** One log, followed: its end first, then each new line as it is written; searchable; follows until scrolled up. */
function Log({ cellId, file }: { cellId: string; file: LogFile }) {
  const { cell } = useData();
  const [lines, setLines] = useState<string[]>([]);
  const [midFile, setMidFile] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [search, setSearch] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  useKey('/', () => searchRef.current?.focus());

  useEffect(() => {
    let offset: number | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    setLines([]);
    const poll = async () => {
      try {
        const chunk = await cell.readLog(cellId, file, offset);
        if (stopped) return;
        if (chunk) {
          const fresh = chunk.text === '' ? [] : chunk.text.replace(/\n$/, '').split('\n');
          if (chunk.restarted && offset !== null) setLines(fresh);
          else if (fresh.length) setLines((kept) => [...kept, ...fresh].slice(-MAX_LINES));
          if (offset === null) setMidFile(chunk.restarted);
          offset = chunk.offset;
        }
        setError(null);
      } catch (failed) {
        if (!stopped) setError(asError(failed));
      }
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [cell, cellId, file]);

  const shown = useMemo(() => {
    const needle = search.toLowerCase();
    return needle ? lines.filter((line) => line.toLowerCase().includes(needle)) : lines;
  }, [lines, search]);
  const { ref: body, onScroll, following, follow } = useFollow<HTMLPreElement>(shown);
  return (
    <section className="log-view" aria-label={file}>
      <div className="stream-head">
        <input ref={searchRef} type="search" placeholder={`Search ${file}  /`} aria-label={`Search ${file}`} value={search} onChange={(e) => setSearch(e.target.value)} />
        <span className="muted">{search ? `${whole(shown.length)} of ${counted(lines.length, 'line')}` : counted(lines.length, 'line')}</span>
        <span className={`follow ${following ? 'on' : ''}`} role="status">
          {following ? '● following' : <button onClick={follow}>follow new lines</button>}
        </span>
      </div>
      {midFile && <p className="muted">Showing the end of a long log.</p>}
      {error && <CallFailed what="The log" error={error} />}
      <pre className="code log-body" ref={body} onScroll={onScroll} role="log" aria-label={`Lines of ${file}`}>
        {shown.join('\n')}
      </pre>
    </section>
  );
}

/** The Logs tab: what a launched run printed (stdout.log, stderr.log) and a runner's own log (driver.log). */
export function LogsTab({ cellId }: { cellId: string }) {
  const files = useLogFiles(cellId);
  const [picked, setPicked] = useState<LogFile | null>(null);
  if (files === null) return <p className="muted">Looking for logs…</p>;
  if (files.length === 0) return <p className="empty-note">This cell has no stdout.log, stderr.log or driver.log: only runs launched from Cellwatch, and runners that keep a driver log, have one.</p>;
  const file = picked && files.includes(picked) ? picked : (files[0] as LogFile);
  return (
    <div className="logs-tab">
      <div className="type-filter" role="group" aria-label="Logs">
        {files.map((f) => (
          <button key={f} aria-pressed={f === file} className={f === file ? 'on' : ''} onClick={() => setPicked(f)}>
            {f}
          </button>
        ))}
      </div>
      <Log key={file} cellId={cellId} file={file} />
    </div>
  );
}
