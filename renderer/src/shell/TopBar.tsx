import { AlertsBell } from '../alerts/AlertsBell';
import { useApp } from '../context';
import { baseName } from '../format';
import { GpuMeters } from '../gpu/GpuView';
import { hostOf } from './Sidebar';
import { LaunchDialog } from '../launch/LaunchDialog';

export function TopBar() {
  const selectedRoot = useApp((s) => s.selectedRoot);
  const launching = useApp((s) => s.launching);
  const setLaunching = useApp((s) => s.setLaunching);
  return (
    <header className="topbar">
      <span className="brand">Cellwatch</span>
      <nav className="crumbs" aria-label="Location">
        <span>{selectedRoot ? hostOf(selectedRoot) : 'local'}</span>
        {selectedRoot && (
          <>
            <span className="sep">/</span>
            <span title={selectedRoot}>{baseName(selectedRoot.replace(/^[^/]*:/, ''))}</span>
          </>
        )}
      </nav>
      <span className="spacer" />
      <kbd className="muted" title="Go to a cell or view">Ctrl+K</kbd>
      <GpuMeters />
      <AlertsBell />
      <button onClick={() => setLaunching(true)} title="Launch a UI run">
        Launch
      </button>
      {launching && <LaunchDialog onClose={() => setLaunching(false)} />}
    </header>
  );
}
