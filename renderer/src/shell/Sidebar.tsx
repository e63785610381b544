import { useRef, useState } from 'react';
import type { RootStatus } from '../../../shared/model';
import { useApp } from '../context';
import { baseName } from '../format';
import { useKey } from '../keys';
import { AddRoot } from '../roots/AddRoot';

function RootRow({ root, selected }: { root: RootStatus; selected: boolean }) {
  const selectRoot = useApp((s) => s.selectRoot);
  const removeRoot = useApp((s) => s.removeRoot);
  return (
    <li className={`root-row${selected ? ' selected' : ''}`}>
      <button className="root-select" onClick={() => selectRoot(selected ? null : root.path)} title={root.path} aria-pressed={selected}>
        <span className={`dot state-${root.state}`} aria-hidden />
        <span className="root-name">{baseName(root.path)}</span>
        <span className="root-meta">
          {root.state === 'ok' ? `${root.cellCount} cell${root.cellCount === 1 ? '' : 's'}` : root.state}
        </span>
      </button>
      <button className="icon-button" onClick={() => void removeRoot(root.path)} aria-label={`Remove runs root ${root.path}`} title="Remove this runs root">
        ×
      </button>
    </li>
  );
}

export function Sidebar() {
  const roots = useApp((s) => s.roots);
  const selectedRoot = useApp((s) => s.selectedRoot);
  const [filter, setFilter] = useState('');
  const filterRef = useRef<HTMLInputElement>(null);
  useKey('/', () => filterRef.current?.focus());

  const shown = roots.filter((r) => r.path.toLowerCase().includes(filter.toLowerCase()));
  return (
    <aside className="sidebar" aria-label="Hosts and runs roots">
      <input
        ref={filterRef}
        className="filter"
        type="search"
        placeholder="Filter roots  /"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        aria-label="Filter runs roots"
      />
      <h2 className="section-title">Hosts</h2>
      <div className="host-row">
        <span className="dot state-ok" aria-hidden />
        <span>local</span>
      </div>
      <ul className="roots">
        {shown.map((root) => (
          <RootRow key={root.path} root={root} selected={root.path === selectedRoot} />
        ))}
      </ul>
      {roots.length > 0 && <AddRoot compact />}
    </aside>
  );
}
