import { useApp } from '../context';
import type { View } from '../store';

const TABS: { view: View; label: string }[] = [
  { view: 'cells', label: 'Cells' },
  { view: 'paired', label: 'Paired test' },
  { view: 'compare', label: 'Compare' },
  { view: 'gpu', label: 'GPU' },
];

export function ViewTabs() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  return (
    <nav className="tabs" role="tablist" aria-label="Views">
      {TABS.map((tab) => (
        <button key={tab.view} role="tab" aria-selected={view === tab.view} className={view === tab.view ? 'active' : undefined} onClick={() => setView(tab.view)}>
          {tab.label}
        </button>
      ))}
    </nav>
  );
}
