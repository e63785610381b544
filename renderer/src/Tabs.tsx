/** A strip of tabs: the app's views, a cell's views. */
export function Tabs<T extends string>({ label, tabs, selected, onSelect }: { label: string; tabs: { id: T; label: string }[]; selected: T; onSelect: (id: T) => void }) {
  return (
    <nav className="tabs" role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button key={tab.id} role="tab" aria-selected={selected === tab.id} className={selected === tab.id ? 'active' : undefined} onClick={() => onSelect(tab.id)}>
          {tab.label}
        </button>
      ))}
    </nav>
  );
}
