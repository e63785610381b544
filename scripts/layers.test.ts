import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../runners';
import { FORMAT_IDS } from './layers.js';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function errors(rule: string, filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}
const importErrors = (filePath: string, source: string) => errors('no-restricted-imports', filePath, source);

describe('layer rules of the architecture table', () => {
  it.each([
    ['shared/x.ts', "import { readFile } from 'node:fs';"],
    ['shared/x.ts', "import { z } from 'zod';"],
    ['shared/x.ts', "import { app } from 'electron';"],
    ['shared/x.ts', "import { useState } from 'react';"],
    ['runners/x/y.ts', "import { app } from 'electron';"],
    ['runners/x/y.ts', "import { createCore } from '../../main/core';"],
    ['main/x.ts', "import { app } from 'electron';"],
    ['main/x.ts', "import { useState } from 'react';"],
    ['main/x.ts', "import { App } from '../renderer/src/App';"],
    ['app/x.ts', "import { App } from '../renderer/src/App';"],
    ['renderer/src/x.ts', "import { readFile } from 'node:fs';"],
    ['renderer/src/x.ts', "import { readFile } from 'fs';"],
    ['renderer/src/x.ts', "import { ipcRenderer } from 'electron';"],
    ['renderer/src/x.ts', "import { createCore } from '../../main/core';"],
    ['renderer/src/x.ts', "import { scanRoot } from '../../runners/detect';"],
    ['main/x.ts', "import { versionUnits } from '../runners/bigym-agent/evaluation';"],
    ['main/compare/x.ts', "import { codingAgent } from '../../runners/coding-agent/adapter';"],
  ])('%s may not %s', async (file, source) => {
    expect(await importErrors(file, `${source}\nexport {};\n`)).toHaveLength(1);
  });

  it.each([
    ['shared/x.ts', "import type { Problem } from './model';"],
    ['runners/x/y.ts', "import { readFile } from 'node:fs/promises';"],
    ['runners/x/y.ts', "import type { Problem } from '../../shared/model';"],
    ['main/x.ts', "import { detectFormat } from '../runners/detect';"],
    ['main/x.ts', "import { ADAPTERS } from '../runners';"],
    ['main/x.ts', "import { runDemo } from '../runners/demo';"],
    ['app/x.ts', "import { app } from 'electron';"],
    ['app/x.ts', "import { createCore } from '../main/core';"],
    ['renderer/src/x.ts', "import { useState } from 'react';"],
    ['renderer/src/x.ts', "import type { Transport } from '../../shared/contract';"],
  ])('%s may %s', async (file, source) => {
    expect(await importErrors(file, `${source}\nexport {};\n`)).toEqual([]);
  });
});

describe('formats stay in runners/', () => {
  it('knows every format the adapters read', () => {
    expect([...FORMAT_IDS].sort()).toEqual(Object.keys(ADAPTERS).sort());
  });

  it.each([
    ['main/x.ts', "export const bigym = (format: string) => format === 'bigym-agent';"],
    ['renderer/src/x.tsx', "export const coding = (format: string) => format === 'coding-agent';"],
  ])('%s may not branch on a format id: %s', async (file, source) => {
    expect(await errors('no-restricted-syntax', file, source)).toHaveLength(1);
  });

  it.each([
    ['main/x.test.ts', "export const bigym = 'bigym-agent';"],
    ['runners/x/y.ts', "export const format = 'harbor-job';"],
    ['main/cli/x.ts', "export const HELP = 'a bigym-agent cell or a coding-agent pair';"],
  ])('%s may name a format: %s', async (file, source) => {
    expect(await errors('no-restricted-syntax', file, source)).toEqual([]);
  });
});
