/** The last segment of a path, for labels; the full path goes in the title. */
export function baseName(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || trimmed;
}

/** A cell's path below its runs root. */
export function relativeTo(root: string, path: string): string {
  return path.startsWith(root) ? path.slice(root.length).replace(/^[/\\]+/, '') || '.' : path;
}
