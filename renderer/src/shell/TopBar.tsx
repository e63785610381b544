import { AlertsBell } from '../alerts/AlertsBell';
import { CopyLink } from './CopyLink';
import { useApp } from '../context';
import { baseName } from '../format';
import { GpuMeters } from '../gpu/GpuMeters';
import { hostOf } from './Sidebar';
import { LaunchDialog } from '../launch/LaunchDialog';
import { LOCAL } from '../../../shared/address';

export function TopBar() {
  const selectedRoot = useApp((s) => s.selectedRoot);
  const launching = useApp((s) => s.launching);
  const sidebar = useApp((s) => s.sidebar);
  const toggleSidebar = useApp((s) => s.toggleSidebar);
  const setLaunching = useApp((s) => s.setLaunching);
  return (
    <header className="topbar">
      <button className="icon-button" onClick={toggleSidebar} aria-pressed={sidebar} aria-label={sidebar ? 'Hide the sidebar (Ctrl+B)' : 'Show the sidebar (Ctrl+B)'} title="Sidebar (Ctrl+B)">
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" />
          <path d="M6 2.5v11" />
        </svg>
      </button>
      <span className="brand">Cellwatch</span>
      <nav className="crumbs" aria-label="Location">
        <span>{selectedRoot ? hostOf(selectedRoot) : LOCAL}</span>
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
      <CopyLink />
      <AlertsBell />
      <button onClick={() => setLaunching(true)} title="Launch a UI run">
        Launch
      </button>
      {launching && <LaunchDialog onClose={() => setLaunching(false)} />}
    </header>
  );
}
