// The paired view's side picker: a cell, an evaluated policy version of a cell that keeps versions, or one
// agent of a cell of several agents, found by typing.
import { useMemo, useState } from 'react';
import type { CellSummary } from '../../../shared/model';
import { whole } from '../format';

export interface Choice {
  id: string;
  label: string;
  format: string;
}

/** Every cell, every evaluated policy version of a cell that keeps versions and every agent of a cell of several, as something to compare. */
export function choicesOf(cells: CellSummary[]): Choice[] {
  return cells.flatMap((cell) => [
    { id: cell.id, label: cell.name, format: cell.format },
    ...[...cell.evaluatedVersions, ...cell.agents.map((a) => a.name)].map((part) => ({ id: `${cell.id}@${part}`, label: `${cell.name} @ ${part}`, format: cell.format })),
  ]);
}

/** Matches shown at once: a few letters narrow a thousand cells. */
const SHOWN = 50;

/** A searchable picker: type a few letters of a cell or version, choose with the arrows and Enter, or a click. */
export function SidePicker({ label, value, choices, onChange }: { label: string; value: string; choices: Choice[]; onChange: (id: string) => void }) {
  const chosen = choices.find((c) => c.id === value);
  const [query, setQuery] = useState<string | null>(null);
  const [cursor, setCursor] = useState(0);
  const text = query ?? chosen?.label ?? '';
  const matches = useMemo(() => {
    if (query === null) return [];
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return choices.filter((c) => words.every((w) => `${c.label} ${c.format}`.toLowerCase().includes(w))).slice(0, SHOWN);
  }, [choices, query]);
  const choose = (choice: Choice | undefined) => {
    if (!choice) return;
    onChange(choice.id);
    setQuery(null);
  };
  const listId = `side-${label}-matches`;
  return (
    <div className="side-picker">
      <span className="side-label">{label}</span>
      <div className="combo">
        <input
          role="combobox"
          aria-label={`Run ${label}`}
          aria-expanded={matches.length > 0}
          aria-controls={listId}
          placeholder={`type a cell or version (${whole(choices.length)} to choose from)`}
          value={text}
          onFocus={(e) => e.target.select()}
          onChange={(e) => (setQuery(e.target.value), setCursor(0))}
          onBlur={() => setTimeout(() => setQuery(null), 150)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setCursor((c) => Math.min(matches.length - 1, c + 1));
            else if (e.key === 'ArrowUp') setCursor((c) => Math.max(0, c - 1));
            else if (e.key === 'Enter') choose(matches[cursor]);
            else if (e.key === 'Escape') setQuery(null);
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        />
        {matches.length > 0 && (
          <ul id={listId} role="listbox" aria-label={`Choices for ${label}`}>
            {matches.map((c, i) => (
              <li key={c.id} role="option" aria-selected={i === cursor} className={i === cursor ? 'cursor' : undefined} onMouseDown={() => choose(c)}>
                <span>{c.label}</span>
                <span className="muted">{c.format}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
