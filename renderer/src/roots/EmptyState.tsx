import { useApp } from '../context';
import { AddRoot } from './AddRoot';

export function EmptyState() {
  const canPickFolder = useApp((s) => s.info?.canPickFolder ?? false);
  const whatIsACell = useApp((s) => s.info?.whatIsACell);
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <h1 id="empty-title">No runs root yet</h1>
      <p>
        A runs root is a folder that holds cells, up to three folders down{whatIsACell ? `; a cell is ${whatIsACell}` : ''}. Add one to
        watch its cells.
      </p>
      <AddRoot />
      <p className="hint">
        {canPickFolder ? 'Type a path or choose a folder. ' : 'Type the path of a folder on the machine that runs Cellwatch, or ALIAS:/path on an SSH host of ~/.ssh/config. '}
        From a terminal: <code>cellwatch serve /path/to/runs</code>
      </p>
    </section>
  );
}
