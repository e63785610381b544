export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string };

/** Files longer than this are diffed as wholly replaced: the table grows with the product of the lengths. */
const MAX_LINES = 4000;

/** The lines of `after` against `before`, by longest common subsequence: kept, removed, added, in order. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length > MAX_LINES || b.length > MAX_LINES) return [...a.map((text) => ({ kind: 'removed' as const, text })), ...b.map((text) => ({ kind: 'added' as const, text }))];
  const width = b.length + 1;
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] as number) + 1 : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number)) lines.push({ kind: 'removed', text: a[i++] as string });
    else lines.push({ kind: 'added', text: b[j++] as string });
  }
  while (i < a.length) lines.push({ kind: 'removed', text: a[i++] as string });
  while (j < b.length) lines.push({ kind: 'added', text: b[j++] as string });
  return lines;
}
