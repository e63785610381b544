// A tool call's arguments compared as what they say, not as they are spaced: the first divergence and a
// looping unit both ask whether two calls are the same.

/** Arguments as one text whatever their spacing and key order: JSON with sorted keys, else the text as given. */
export function canonicalArguments(text: string): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sorted) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])])) : value;
  try {
    return JSON.stringify(sorted(JSON.parse(text)));
  } catch {
    return text.trim();
  }
}
