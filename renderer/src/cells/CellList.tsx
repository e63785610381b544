import { useApp } from '../context';
import { baseName, relativeTo } from '../format';

export function CellList() {
  const cells = useApp((s) => s.cells);
  const selectedRoot = useApp((s) => s.selectedRoot);
  const shown = selectedRoot === null ? cells : cells.filter((c) => c.root === selectedRoot);

  return (
    <section className="cell-list" aria-label="Cells">
      <h1 className="view-title">
        {selectedRoot ? baseName(selectedRoot) : 'All runs roots'}
        <span className="count">{shown.length} cells</span>
      </h1>
      {shown.length === 0 ? (
        <p className="empty-note">
          No cells found{selectedRoot ? ` in ${selectedRoot}` : ''}. A cell is a folder with a <code>run.json</code> from coding-agent,
          bigym-agent or evopolicygym, or a Harbor job folder, at most three folders below the root.
        </p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Format</th>
              <th scope="col">Board</th>
              <th scope="col">Path</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((cell) => (
              <tr key={cell.id}>
                <td className="name">{cell.name}</td>
                <td>{cell.format}</td>
                <td>
                  <span className={`badge board-${cell.board}`}>{cell.board}</span>
                </td>
                <td className="path" title={cell.path}>
                  {relativeTo(cell.root, cell.path)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
