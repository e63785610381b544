import { useApp } from '../context';
import { baseName } from '../format';
import { GpuMeters } from '../gpu/GpuView';

export function TopBar() {
  const selectedRoot = useApp((s) => s.selectedRoot);
  return (
    <header className="topbar">
      <span className="brand">Cellwatch</span>
      <nav className="crumbs" aria-label="Location">
        <span>local</span>
        {selectedRoot && (
          <>
            <span className="sep">/</span>
            <span title={selectedRoot}>{baseName(selectedRoot)}</span>
          </>
        )}
      </nav>
      <span className="spacer" />
      <GpuMeters />
    </header>
  );
}
