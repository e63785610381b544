import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function importErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rules of the architecture table', () => {
  it.each([
    ['shared/x.ts', "import { readFile } from 'node:fs';"],
    ['shared/x.ts', "import { z } from 'zod';"],
    ['shared/x.ts', "import { app } from 'electron';"],
    ['shared/x.ts', "import { useState } from 'react';"],
    ['runners/x/y.ts', "import { app } from 'electron';"],
    ['runners/x/y.ts', "import { createCore } from '../../main/backend';"],
    ['main/x.ts', "import { app } from 'electron';"],
    ['main/x.ts', "import { useState } from 'react';"],
    ['main/x.ts', "import { App } from '../renderer/src/App';"],
    ['app/x.ts', "import { App } from '../renderer/src/App';"],
    ['renderer/src/x.ts', "import { readFile } from 'node:fs';"],
    ['renderer/src/x.ts', "import { readFile } from 'fs';"],
    ['renderer/src/x.ts', "import { ipcRenderer } from 'electron';"],
    ['renderer/src/x.ts', "import { createCore } from '../../main/backend';"],
    ['renderer/src/x.ts', "import { scanRoot } from '../../runners/detect';"],
  ])('%s may not %s', async (file, source) => {
    expect(await importErrors(file, `${source}\nexport {};\n`)).toHaveLength(1);
  });

  it.each([
    ['shared/x.ts', "import type { Problem } from './model';"],
    ['runners/x/y.ts', "import { readFile } from 'node:fs/promises';"],
    ['runners/x/y.ts', "import type { Problem } from '../../shared/model';"],
    ['main/x.ts', "import { detectFormat } from '../runners/detect';"],
    ['app/x.ts', "import { app } from 'electron';"],
    ['app/x.ts', "import { createCore } from '../main/backend';"],
    ['renderer/src/x.ts', "import { useState } from 'react';"],
    ['renderer/src/x.ts', "import type { Transport } from '../../shared/contract';"],
  ])('%s may %s', async (file, source) => {
    expect(await importErrors(file, `${source}\nexport {};\n`)).toEqual([]);
  });
});
