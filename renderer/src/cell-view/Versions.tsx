import { percent } from '../format';
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../context';
import { useCell } from './context';
import { ProgramSource, type ProgramShown } from './ProgramSource';
import { usePlainColumns } from '../plainColumns';
import type { VersionRow } from '../../../shared/cell-detail';

const EVAL_LABEL = { none: '–', evaluating: 'evaluating', scored: 'scored', eval_failed: 'EVAL FAILED (unscored)' } as const;
const EVAL_TONE = { none: 'grey', evaluating: 'running', scored: 'ok', eval_failed: 'error' } as const;

export function Versions() {
  const versions = useCell(useShallow((s) => s.detail?.versions ?? []));
  const cellName = useCell((s) => s.detail?.summary.name ?? '');
  const cellId = useCell((s) => s.detail?.summary.id ?? '');
  const programs = useCell(useShallow((s) => s.detail?.programs ?? []));
  const [shown, setShown] = useState<ProgramShown | null>(null);
  const compare = useApp((s) => s.compare);
  const [ticked, setTicked] = useState<string[]>([]);
  const { shown: columns, menu, header, cells } = usePlainColumns<VersionRow>('versions', [
    { key: 'tick', title: '', always: true, render: (v) => <input type="checkbox" aria-label={`Compare ${v.version}`} checked={ticked.includes(v.version)} onChange={() => tick(v.version)} /> },
    {
      key: 'version',
      title: 'Version',
      always: true,
      td: () => ({ className: 'name' }),
      render: (v) => (
        <button className="link" onClick={() => show(v.version)} title={`Show policies/${v.version}.py`}>
          {v.version}
        </button>
      ),
    },
    { key: 'dev', title: 'Dev episodes', numeric: true, render: (v) => v.devEpisodes },
    { key: 'devSuccess', title: 'Dev success', numeric: true, render: (v) => (v.devEpisodes ? percent(v.devSuccesses / v.devEpisodes) : '–') },
    {
      key: 'evaluation',
      title: 'Evaluation',
      render: (v) => (
        <>
          <span className={`pill tone-${EVAL_TONE[v.evalState]}`}>{EVAL_LABEL[v.evalState]}</span>
          {v.evalState === 'evaluating' && (
            <span className="inline-progress">
              {' '}
              {v.evalDone} / {v.evalTotal ?? '?'}
            </span>
          )}
        </>
      ),
    },
    { key: 'score', title: 'Eval score', numeric: true, render: (v) => percent(v.evalRate) },
    {
      key: 'checks',
      title: 'Checks',
      render: (v) => (
        <>
          {v.rejected && <span className="pill tone-fail">rejected: imports the simulator</span>}
          {v.spotCheckFailed && <span className="pill tone-error">spot check failed</span>}
          {!v.rejected && !v.spotCheckFailed && v.evalState === 'scored' && <span className="muted">ok</span>}
        </>
      ),
    },
  ]);
  if (versions.length === 0) return <p className="empty-note">No policy version yet: the cell is void until policies/ holds one.</p>;
  const program = (version: string) => programs.find((p) => p.id === version);
  const show = (version: string) => {
    const found = program(version);
    if (found) setShown({ kind: 'source', program: found });
  };
  const diff = (from: string, to: string) => {
    const [a, b] = [program(from), program(to)];
    if (a && b) setShown({ kind: 'diff', from: a, to: b });
  };
  const tick = (version: string) => setTicked((t) => (t.includes(version) ? t.filter((v) => v !== version) : [...t, version].slice(-6)));
  return (
    <>
    <div className="versions-actions">
      <button disabled={ticked.length < 2} onClick={() => compare(ticked.map((v) => `${cellName}:${v}`).join(','))}>
        Compare {ticked.length || ''} on one seed
      </button>
      <button disabled={ticked.length !== 2} onClick={() => diff(ticked[0] as string, ticked[1] as string)}>
        {ticked.length === 2 ? `Diff ${ticked[0]} → ${ticked[1]}` : 'Diff two'}
      </button>
      <span className="muted">tick two to six versions; a version's name shows its source</span>
      <span className="spacer" />
      {menu}
    </div>
    <table className="plain-table" aria-label="Policy versions">
      <thead>
        <tr>{columns.map(header)}</tr>
      </thead>
      <tbody>
        {versions.map((v) => (
          <tr key={v.version}>
            {cells(v)}
          </tr>
        ))}
      </tbody>
    </table>
    {shown && <ProgramSource cellId={cellId} shown={shown} onClose={() => setShown(null)} />}
    </>
  );
}
