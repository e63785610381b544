import { useEffect, useRef } from 'react';
import { SHORTCUTS } from '../shortcuts';

/** What `?` opens: every shortcut, its keys and where it works. */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);
  return (
    <div className="palette-backdrop" onClick={onClose}>
      <div className="shortcuts" role="dialog" aria-label="Keyboard shortcuts" tabIndex={-1} ref={panel} onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        <h2>Keyboard shortcuts</h2>
        <table className="plain-table">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.what}>
                <td className="keys">
                  {s.keys.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </td>
                <td>{s.what}</td>
                <td className="muted">{s.where}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
