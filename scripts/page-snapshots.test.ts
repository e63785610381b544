import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../runners/testing';
import { failedPages } from './page-snapshots.mjs';

// The two shapes of error-context.md that Playwright 1.65 writes, as it wrote them for a spec failing each way
// (its instructions to a reader and most of its test info left out).
const locatorFailed = `# Test info

- Name: x.spec.ts >> x

# Error details

\`\`\`
Error: expect(locator).toBeVisible() failed

Locator: locator('.cell-header')
Error: element(s) not found
\`\`\`

\`\`\`yaml
- main:
  - heading "Hello" [level=1]
  - button "Go"
\`\`\`

# Test source

\`\`\`ts
> 4 |   await expect(page.locator('.cell-header')).toBeVisible({ timeout: 1000 });
\`\`\``;
const valueFailed = `# Test info

- Name: y.spec.ts >> y

# Error details

\`\`\`
Error: expect(received).toBe(expected) // Object.is equality
\`\`\`

# Page snapshot

\`\`\`yaml
- main [ref=e2]:
  - heading "Runs" [level=1] [ref=e3]
  - button "Open" [ref=e4]
\`\`\`
`;
const noPage = `# Test info

- Name: z.spec.ts >> z

# Error details

\`\`\`
Error: a failure on purpose
\`\`\`
`;

let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.remove());

describe("the pages of an e2e run's failed specs", () => {
  it('reads the page a failed locator assertion saw and the page of a spec that failed otherwise; a spec without a page has none', () => {
    tmp = tempDir();
    const results = tmp.path;
    for (const [spec, text] of [['layout-x', locatorFailed], ['paired-y', valueFailed], ['teardown-z', noPage]]) {
      mkdirSync(join(results, spec as string));
      writeFileSync(join(results, spec as string, 'error-context.md'), text as string);
    }
    const pages = failedPages(results).sort((a, b) => a.spec.localeCompare(b.spec));
    expect(pages).toEqual([
      { spec: 'layout-x', lines: ['- main:', '  - heading "Hello" [level=1]', '  - button "Go"'], cut: false },
      { spec: 'paired-y', lines: ['- main [ref=e2]:', '  - heading "Runs" [level=1] [ref=e3]', '  - button "Open" [ref=e4]'], cut: false },
    ]);
    expect(failedPages(results, 2).find((p) => p.spec === 'paired-y')).toEqual({ spec: 'paired-y', lines: ['- main [ref=e2]:', '  - heading "Runs" [level=1] [ref=e3]'], cut: true });
    expect(failedPages(join(results, 'none'))).toEqual([]);
  });
});
