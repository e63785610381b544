import { forwardRef, useState, type KeyboardEvent } from 'react';
import type { CellSummary } from '../../../shared/model';
import { completions, filterSyntax } from './filter';

/**
 * The cell list's filter field, teaching its syntax: what the last word may become (a field name, a value
 * the cells have) is offered under it; Tab takes the first, a click any. `onKeyDown` hears the rest.
 */
export const FilterField = forwardRef<HTMLInputElement, { value: string; onChange: (value: string) => void; onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => void; cells: readonly CellSummary[] }>(
  function FilterField({ value, onChange, onKeyDown, cells }, ref) {
    const [focused, setFocused] = useState(false);
    const offered = focused ? completions(value, cells) : [];
    return (
      <span className="filter-field">
        <input
          ref={ref}
          type="search"
          className="list-filter"
          placeholder="Filter cells  /"
          aria-label="Filter cells"
          title={`Filter by ${filterSyntax(cells)}`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onKeyDown={(e) => {
            if (e.key === 'Tab' && !e.shiftKey && offered[0]) {
              e.preventDefault();
              onChange(offered[0]);
            } else onKeyDown(e);
          }}
        />
        {offered.length > 0 && (
          <ul className="filter-completions" role="listbox" aria-label="Filter completions">
            {offered.map((text) => (
              // Before the field's blur: a click takes it.
              <li key={text} role="option" aria-selected={false} onMouseDown={(e) => (e.preventDefault(), onChange(text))}>
                {text.slice(text.lastIndexOf(' ') + 1)}
              </li>
            ))}
          </ul>
        )}
      </span>
    );
  },
);
