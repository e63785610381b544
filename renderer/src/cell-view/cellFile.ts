/** A file of a cell as the app's media route serves it (text as text/plain, never run), by its path relative to the cell. */
function cellFileUrl(cellId: string, path: string): string {
  return `media/${encodeURIComponent(cellId)}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** A cell file's text, or the status it could not be read with (404: not there, or no text type; null: no answer). */
export async function fetchCellText(cellId: string, path: string): Promise<{ text: string } | { status: number | null }> {
  const response = await fetch(cellFileUrl(cellId, path)).catch(() => null);
  if (!response?.ok) return { status: response?.status ?? null };
  return { text: await response.text() };
}
