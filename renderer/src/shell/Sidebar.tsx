import { useMemo, useRef, useState } from 'react';
import { counted, whole } from '../format';
import type { CellSummary, RootStatus } from '../../../shared/model';
import { useNameCuts } from '../name-cuts';
import { useRoom } from '../table-layout';
import { useApp } from '../context';
import { AddRoot } from '../roots/AddRoot';
import { STATE_LOOK } from '../cell-list/states';
import { HostRow } from './HostRow';
import { isLocal, parseAddress } from '../../../shared/address';

/** Cells shown under a selected root in the sidebar, the running first; the cell list shows them all. */
const SIDEBAR_CELLS = 50;
/** The dot, its gap and the row's padding beside a cell's name (px; styles.css .root-cell). */
const BESIDE_NAME_PX = 30;

const nameOf = (cell: CellSummary) => cell.name;

function RootCells({ root }: { root: string }) {
  const cells = useApp((s) => s.cells);
  const openCell = useApp((s) => s.openCell);
  const mine = useMemo(() => cells.filter((c) => c.root === root).sort((a, b) => STATE_LOOK[a.state].order - STATE_LOOK[b.state].order || a.name.localeCompare(b.name)), [cells, root]);
  const shown = useMemo(() => mine.slice(0, SIDEBAR_CELLS), [mine]);
  const ref = useRef<HTMLUListElement>(null);
  const room = useRoom(ref, true);
  // Names cut where they differ from the others shown (…c0_e7_00007), not all to one alike start.
  const chars = room ? Math.max(8, Math.floor((room.px - BESIDE_NAME_PX) / (room.textPx('0'.repeat(10)) / 10))) : null;
  const fit = useNameCuts(shown, nameOf, chars);
  return (
    <ul className="root-cells" aria-label={`Cells of ${root}`} ref={ref}>
      {shown.map((cell) => (
        <li key={cell.id}>
          <button className="root-cell" onClick={() => openCell(cell.id)} aria-label={cell.name} title={`${cell.name}: ${STATE_LOOK[cell.state].label}`}>
            <span className={`dot tone-bg-${STATE_LOOK[cell.state].tone}`} aria-hidden />
            <span className="root-name">{fit(cell.name).replace('\n', '')}</span>
          </button>
        </li>
      ))}
      {mine.length > shown.length && <li className="muted">{whole(mine.length - shown.length)} more in the list</li>}
    </ul>
  );
}

/**
 * Each root's shortest name that tells it apart from the others: its last folder, or as many of its last
 * folders as it takes (`a/runs`, `b/runs`), with its host when that differs.
 */
export function shortNames(paths: string[]): Map<string, string> {
  const parts = new Map(paths.map((p) => [p, p.split('/').filter(Boolean)]));
  const names = new Map<string, string>();
  for (const path of paths) {
    const mine = parts.get(path) as string[];
    let depth = 1;
    const name = () => mine.slice(-depth).join('/');
    while (depth < mine.length && paths.some((other) => other !== path && (parts.get(other) as string[]).slice(-depth).join('/') === name())) depth++;
    names.set(path, name() || path);
  }
  return names;
}

/** What a hosts file's entry limits a root to, in words. */
function limitTitle(limit: NonNullable<RootStatus['limit']>): string {
  const parts = [limit.benchmarks.length && `benchmarks ${limit.benchmarks.join(', ')}`, limit.runs.length && `runs ${limit.runs.join(', ')}`].filter(Boolean);
  return `Its hosts file lists only ${parts.join(' and ')}: ${counted(limit.hidden, 'other cell is', 'other cells are')} not listed`;
}

function RootRow({ root, selected, name }: { root: RootStatus; selected: boolean; name: string }) {
  const selectRoot = useApp((s) => s.selectRoot);
  const removeRoot = useApp((s) => s.removeRoot);
  return (
    <>
    <li className={`root-row${selected ? ' selected' : ''}`}>
      <button className="root-select" onClick={() => selectRoot(selected ? null : root.path)} title={root.path} aria-pressed={selected}>
        <span className={`dot state-${root.state}`} aria-hidden />
        <span className="root-name">
          {name}
          {root.source === 'demo' && <span className="badge demo">demo</span>}
        </span>
        <span className="root-meta" title={root.state !== 'ok' ? root.problems.map((p) => p.message).join('\n') || undefined : root.limit ? limitTitle(root.limit) : undefined}>
          {root.state !== 'ok'
            ? root.state
            : root.limit
              ? `${whole(root.cellCount)} of ${counted(root.cellCount + root.limit.hidden, 'cell')}`
              : counted(root.cellCount, 'cell')}
        </span>
      </button>
      <button className="icon-button" onClick={() => void removeRoot(root.path)} aria-label={`Remove runs root ${root.path}`} title="Remove this runs root">
        ×
      </button>
    </li>
    {selected && <RootCells root={root.path} />}
    </>
  );
}

/** The host a root address names: `ALIAS:/path` on an SSH host, else this machine. */
export const hostOf = (rootPath: string) => parseAddress(rootPath).host;

export function Sidebar() {
  const roots = useApp((s) => s.roots);
  const hosts = useApp((s) => s.hosts);
  const selectedRoot = useApp((s) => s.selectedRoot);
  const [filter, setFilter] = useState('');
  const filterRef = useRef<HTMLInputElement>(null);

  const shown = roots.filter((r) => r.path.toLowerCase().includes(filter.toLowerCase()));
  const names = shortNames(roots.map((r) => r.path));
  return (
    <aside className="sidebar" aria-label="Hosts and runs roots">
      <input
        ref={filterRef}
        className="filter"
        type="search"
        placeholder="Filter roots"
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
        {shown.filter((r) => isLocal(hostOf(r.path))).map((root) => (
          <RootRow key={root.path} root={root} selected={root.path === selectedRoot} name={names.get(root.path) ?? root.path} />
        ))}
      </ul>
      {hosts.map((host) => (
        <section key={host.alias} aria-label={`Host ${host.alias}`}>
          <HostRow host={host} />
          <ul className="roots">
            {shown.filter((r) => hostOf(r.path) === host.alias).map((root) => (
              <RootRow key={root.path} root={root} selected={root.path === selectedRoot} name={names.get(root.path) ?? root.path} />
            ))}
          </ul>
        </section>
      ))}
      {roots.length > 0 && <AddRoot compact />}
    </aside>
  );
}
