import { useEffect, useMemo, useRef, useState } from 'react';
import { useApp } from '../context';
import type { View } from '../data/store';

interface Item {
  label: string;
  hint: string;
  run(): void;
}

/** "episode 5", "ep 5": an episode of a cell that streams its episodes. */
const EPISODE = /\b(?:episode|ep)\s*(\d+)\b/;

/** Ctrl/Cmd+K: jump to a cell, a policy version, an episode, a view or a command by typing a few letters of it. */
export function Palette({ onClose, onHelp }: { onClose: () => void; onHelp: () => void }) {
  const cells = useApp((s) => s.cells);
  const openCell = useApp((s) => s.openCell);
  const openCellId = useApp((s) => s.openCellId);
  const setView = useApp((s) => s.setView);
  const setLaunching = useApp((s) => s.setLaunching);
  const setAlertsOpen = useApp((s) => s.setAlertsOpen);
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const items = useMemo(() => {
    // Each view by its name and the words a user may look for it by.
    const views: [View, string, string][] = [
      ['cells', 'Cells', 'list runs'],
      ['board', 'Board', 'leaderboard comparisons'],
      ['paired', 'Paired test', 'mcnemar'],
      ['compare', 'Compare', 'versions playback'],
      ['gpu', 'GPU', 'memory nvidia-smi'],
      ['runs', 'Runs', 'launched ui runs'],
      ['fleet', 'Fleet', 'hosts machines ssh'],
    ];
    const commands: Item[] = [
      { label: 'Launch a UI run', hint: 'command · launch', run: () => setLaunching(true) },
      { label: 'Record a comparison to mp4', hint: 'command · record · compare', run: () => setView('compare') },
      { label: 'Paired test of two runs', hint: 'command · paired · mcnemar', run: () => setView('paired') },
      { label: 'Alerts', hint: 'view · notifications', run: () => setAlertsOpen(true) },
      { label: 'Keyboard shortcuts', hint: 'command · help · keys', run: onHelp },
    ];
    // The open cell first: "episode 5" most often means one of its episodes.
    const ordered = openCellId ? [...cells.filter((c) => c.id === openCellId), ...cells.filter((c) => c.id !== openCellId)] : cells;
    const episode = EPISODE.exec(query.toLowerCase())?.[1];
    const all: Item[] = [
      ...(episode === undefined
        ? []
        : ordered.filter((c) => c.capabilities.episodeStreams).map((c) => ({ label: `${c.name} · episode ${episode}`, hint: 'episode', run: () => openCell(c.id, 'episodes', episode) }))),
      ...ordered.map((c) => ({ label: c.name, hint: `${c.format} · ${c.host}`, run: () => openCell(c.id) })),
      ...ordered.flatMap((c) => c.policyVersions.map((v) => ({ label: `${c.name} ${v}`, hint: 'policy version', run: () => openCell(c.id, 'versions') }))),
      ...views.map(([view, label, words]) => ({ label, hint: `view · ${words}`, run: () => setView(view) })),
      ...commands,
    ];
    // An episode's words are matched by its own item; the rest narrow the cells.
    const words = query.toLowerCase().replace(EPISODE, '').split(/\s+/).filter(Boolean);
    const found = all.filter((item) => (episode === undefined || item.hint === 'episode' || words.length > 0) && words.every((w) => `${item.label} ${item.hint}`.toLowerCase().includes(w)));
    // What the words name first, then what they only describe ("launch": the command, then the Runs view).
    const named = (item: Item) => words.every((w) => item.label.toLowerCase().includes(w));
    return [...found.filter(named), ...found.filter((item) => !named(item))].slice(0, 50);
  }, [cells, query, openCell, openCellId, setView, setLaunching, setAlertsOpen, onHelp]);
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
          placeholder="Go to a cell, version (v003), episode (episode 5), view or command…"
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
