// What each failed Playwright spec's page showed when it failed, read from the error-context.md Playwright
// writes beside it: `npm test` prints them, for a log that is all one gets of a run elsewhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * The page's accessibility tree in one error-context.md: under "# Page snapshot" when the test failed by
 * itself, under "# Error details" when a locator's assertion failed (Playwright puts the page it saw there).
 */
function pageOf(markdown) {
  return /^```yaml\n([\s\S]*?)^```/m.exec(markdown)?.[1]?.trimEnd() || null;
}

/** Each failed spec's folder under `dir` and its page, at most `most` lines of it. */
export function failedPages(dir, most = 150) {
  const files = existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => basename(f) === 'error-context.md') : [];
  return files.flatMap((file) => {
    const page = pageOf(readFileSync(join(dir, file), 'utf8'));
    if (!page) return [];
    const lines = page.split('\n');
    return [{ spec: dirname(file), lines: lines.slice(0, most), cut: lines.length > most }];
  });
}
