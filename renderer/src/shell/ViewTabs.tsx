import { useApp } from '../context';
import type { View } from '../data/store';
import { Tabs } from '../Tabs';

const TABS: { id: View; label: string }[] = [
  { id: 'cells', label: 'Cells' },
  { id: 'board', label: 'Board' },
  { id: 'paired', label: 'Paired test' },
  { id: 'compare', label: 'Compare' },
  { id: 'gpu', label: 'GPU' },
  { id: 'runs', label: 'Runs' },
  { id: 'fleet', label: 'Fleet' },
];

export function ViewTabs() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  return <Tabs label="Views" tabs={TABS} selected={view} onSelect={setView} />;
}
