/** A file of a cell as the app's media route serves it (text as text/plain, never run), by its path relative to the cell. */
export function cellFileUrl(cellId: string, path: string): string {
  return `media/${encodeURIComponent(cellId)}/${path.split('/').map(encodeURIComponent).join('/')}`;
}
