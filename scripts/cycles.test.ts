import { ESLint } from 'eslint';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../runners/testing';
import { cycleThrough, importsOf } from './cycles.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

function tree(files: Record<string, string>) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(tmp.path, file, '..'), { recursive: true });
    writeFileSync(join(tmp.path, file), text);
  }
}

const graph = (edges: Record<string, string[]>) => (file: string) => edges[file] ?? [];

describe('the import-cycle rule', () => {
  it('finds a path back to the start, through any number of modules', () => {
    expect(cycleThrough('a', 'b', graph({ b: ['c'], c: ['a'] }))).toEqual(['a', 'b', 'c', 'a']);
    expect(cycleThrough('a', 'b', graph({ b: ['c'], c: ['d'], d: ['c'] }))).toBeNull();
  });

  it('reads relative imports, type-only and re-exports included, and ignores packages', () => {
    tree({ 'x/b.ts': '', 'x/c/index.ts': '', 'x/d.tsx': '' });
    const source = "import { a } from 'zod';\nimport type { B } from './b';\nexport { c } from './c';\nimport './d';\n";
    expect(importsOf(join(tmp.path, 'x', 'a.ts'), source)).toEqual([join(tmp.path, 'x/b.ts'), join(tmp.path, 'x/c/index.ts'), join(tmp.path, 'x/d.tsx')]);
  });

  it('fails lint on a cycle between two modules of the project, naming the path', async () => {
    tree({
      'pkg/adapter.ts': "import { detail } from './detail';\nexport const adapter = detail;\n",
      'pkg/detail.ts': "import { adapter } from './adapter';\nexport const detail = 1;\nexport const again = adapter;\n",
      'pkg/fine.ts': "import { detail } from './detail';\nexport const fine = detail;\n",
    });
    const eslint = new ESLint({
      cwd: tmp.path,
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: (await import('typescript-eslint')).parser }, plugins: { cellwatch: { rules: { 'no-import-cycle': (await import('./cycles.js')).noImportCycle } } }, rules: { 'cellwatch/no-import-cycle': 'error' } }],
    });
    const results = await eslint.lintFiles(['pkg/*.ts']);
    const messages = Object.fromEntries(results.map((r) => [r.filePath.replace(`${tmp.path}/`, ''), r.messages.map((m) => m.message)]));
    expect(messages['pkg/adapter.ts']).toEqual(['import cycle: pkg/adapter.ts -> pkg/detail.ts -> pkg/adapter.ts']);
    expect(messages['pkg/detail.ts']).toEqual(['import cycle: pkg/detail.ts -> pkg/adapter.ts -> pkg/detail.ts']);
    expect(messages['pkg/fine.ts']).toEqual([]);
  });
});
