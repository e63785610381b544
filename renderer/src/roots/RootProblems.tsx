import { useApp } from '../context';

/** Problems of the shown roots: a missing or unreadable root says so here, and the rest keeps working. */
export function RootProblems() {
  const roots = useApp((s) => s.roots);
  const selectedRoot = useApp((s) => s.selectedRoot);
  const problems = roots.filter((r) => selectedRoot === null || r.path === selectedRoot).flatMap((r) => r.problems);
  if (problems.length === 0) return null;
  return (
    <ul className="problems" aria-label="Problems">
      {problems.map((p, i) => (
        <li key={`${p.file}:${i}`}>
          <span className="problem-mark" aria-hidden>
            !
          </span>
          <code>{p.file}</code> {p.message}
        </li>
      ))}
    </ul>
  );
}
