import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useCell } from './context';
import { ProgramSource, type ProgramShown } from './ProgramSource';

/** The programs the agent published (a record's submissions, a cell that keeps versions): each one's files, and the change between two. */
export function Programs() {
  const programs = useCell(useShallow((s) => s.detail?.programs ?? []));
  const cellId = useCell((s) => s.detail?.summary.id ?? '');
  const [ticked, setTicked] = useState<string[]>([]);
  const [shown, setShown] = useState<ProgramShown | null>(null);
  if (programs.length === 0) return <p className="empty-note">No program published yet.</p>;
  const tick = (id: string) => setTicked((t) => (t.includes(id) ? t.filter((v) => v !== id) : [...t, id].slice(-2)));
  const [from, to] = ticked.map((id) => programs.find((p) => p.id === id));
  return (
    <>
      <div className="versions-actions">
        <button disabled={!from || !to} onClick={() => from && to && setShown({ kind: 'diff', from, to })}>
          {from && to ? `Diff ${from.id} → ${to.id}` : 'Diff two'}
        </button>
        <span className="muted">tick two programs; a program's name shows its source</span>
      </div>
      <table className="plain-table" aria-label="Programs">
        <thead>
          <tr>
            <th />
            <th>Program</th>
            <th className="num">Files</th>
            <th>Files in it</th>
          </tr>
        </thead>
        <tbody>
          {programs.map((p) => (
            <tr key={p.id}>
              <td>
                <input type="checkbox" aria-label={`Diff ${p.id}`} checked={ticked.includes(p.id)} onChange={() => tick(p.id)} />
              </td>
              <td className="name">
                <button className="link" onClick={() => setShown({ kind: 'source', program: p })} title={`Show programs/${p.id}/`}>
                  {p.id}
                </button>
                {p.note && <span className="pill tone-ok">{p.note}</span>}
              </td>
              <td className="num">{p.files.length}</td>
              <td className="muted">{p.files.map((f) => f.name).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown && <ProgramSource cellId={cellId} shown={shown} onClose={() => setShown(null)} />}
    </>
  );
}
