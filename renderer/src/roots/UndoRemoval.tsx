import { useApp } from '../context';
import { useNow } from '../useNow';

/** A removed runs root, for a few seconds: the root, the seconds left, and Undo. */
export function UndoRemoval() {
  const removing = useApp((s) => s.removing);
  const undo = useApp((s) => s.undoRemove);
  const now = useNow(1000);
  if (!removing) return null;
  const left = Math.max(0, Math.ceil((removing.until - now) / 1000));
  return (
    <div className="toast" role="status" aria-label="Root removed">
      <span>
        Removed runs root <code>{removing.path}</code>
      </span>
      <button onClick={() => void undo()}>Undo</button>
      <span className="muted">{left} s</span>
    </div>
  );
}
