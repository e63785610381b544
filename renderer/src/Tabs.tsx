import { useRef, type KeyboardEvent } from 'react';

/** The tab an arrow key, Home or End moves to from `at` of `count`; null for any other key. */
function nextTab(key: string, at: number, count: number): number | null {
  if (key === 'ArrowRight') return (at + 1) % count;
  if (key === 'ArrowLeft') return (at - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * A strip of tabs: the app's views, a cell's views. One stop for Tab, the selected one; the arrows (and
 * Home, End) move between them and select as they go.
 */
export function Tabs<T extends string>({ label, tabs, selected, onSelect }: { label: string; tabs: { id: T; label: string }[]; selected: T; onSelect: (id: T) => void }) {
  const strip = useRef<HTMLElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    const next = nextTab(event.key, tabs.findIndex((t) => t.id === selected), tabs.length);
    if (next === null) return;
    event.preventDefault();
    onSelect((tabs[next] as { id: T }).id);
    (strip.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next])?.focus();
  };
  return (
    <nav className="tabs" role="tablist" aria-label={label} ref={strip} onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button key={tab.id} role="tab" aria-selected={selected === tab.id} tabIndex={selected === tab.id ? 0 : -1} className={selected === tab.id ? 'active' : undefined} onClick={() => onSelect(tab.id)}>
          {tab.label}
        </button>
      ))}
    </nav>
  );
}
