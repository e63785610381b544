import { useEffect, useMemo, useRef, useState } from 'react';
import { useApp } from '../context';
import type { View } from '../store';

interface Item {
  label: string;
  hint: string;
  run(): void;
}

/** Ctrl/Cmd+K: jump to a cell or a view by typing a few letters of it. */
export function Palette({ onClose }: { onClose: () => void }) {
  const cells = useApp((s) => s.cells);
  const openCell = useApp((s) => s.openCell);
  const setView = useApp((s) => s.setView);
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const items = useMemo(() => {
    const views: [View, string][] = [['cells', 'Cells'], ['paired', 'Paired test'], ['compare', 'Compare'], ['gpu', 'GPU']];
    const all: Item[] = [
      ...cells.map((c) => ({ label: c.name, hint: `${c.format} · ${c.host}`, run: () => openCell(c.id) })),
      ...views.map(([view, label]) => ({ label, hint: 'view', run: () => setView(view) })),
    ];
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return all.filter((item) => words.every((w) => `${item.label} ${item.hint}`.toLowerCase().includes(w))).slice(0, 50);
  }, [cells, query, openCell, setView]);
  useEffect(() => setCursor(0), [query]);

  const choose = (item: Item | undefined) => {
    if (!item) return;
    item.run();
    onClose();
  };
  return (
    <div className="palette-backdrop" onClick={onClose}>
      <div className="palette" role="dialog" aria-label="Go to" onClick={(e) => e.stopPropagation()}>
        <input
          ref={input}
          aria-label="Go to a cell or view"
          placeholder="Go to a cell or view…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setCursor((c) => Math.min(items.length - 1, c + 1));
            else if (e.key === 'ArrowUp') setCursor((c) => Math.max(0, c - 1));
            else if (e.key === 'Enter') choose(items[cursor]);
            else if (e.key === 'Escape') onClose();
            else return;
            e.preventDefault();
          }}
        />
        <ul role="listbox" aria-label="Matches">
          {items.map((item, i) => (
            <li key={`${item.hint}:${item.label}`} role="option" aria-selected={i === cursor} className={i === cursor ? 'cursor' : undefined} onClick={() => choose(item)}>
              <span>{item.label}</span>
              <span className="muted">{item.hint}</span>
            </li>
          ))}
          {items.length === 0 && <li className="muted">Nothing matches.</li>}
        </ul>
      </div>
    </div>
  );
}
