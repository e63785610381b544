// An ESLint rule that fails on an import cycle between the project's own modules: a module that imports,
// directly or through others, a module that imports it back.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;
const EXTENSIONS = ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx'];

/** The file a relative specifier names, or null (a package, or nothing there). */
export function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier);
  for (const ext of EXTENSIONS) {
    const file = base + ext;
    if (ext === '' && !/\.(ts|tsx|mjs|js)$/.test(file)) continue;
    if (existsSync(file)) return file;
  }
  return null;
}

/** The project files a source imports (type-only imports count: they tie the modules as much). */
export function importsOf(file, source) {
  const found = [];
  for (const match of source.matchAll(IMPORT)) {
    const target = resolveImport(file, match[1] ?? match[2]);
    if (target) found.push(target);
  }
  return found;
}

/**
 * A path of imports from `start` back to `start` through `first`, or null. `importsFrom(file)` lists
 * what a file imports.
 */
export function cycleThrough(start, first, importsFrom) {
  const seen = new Set();
  const path = [];
  const visit = (file) => {
    if (file === start) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    path.push(file);
    for (const next of importsFrom(file)) if (visit(next)) return true;
    path.pop();
    return false;
  };
  return visit(first) ? [start, ...path, start] : null;
}

const cache = new Map();
function importsFromDisk(file) {
  if (!cache.has(file)) cache.set(file, existsSync(file) ? importsOf(file, readFileSync(file, 'utf8')) : []);
  return cache.get(file);
}

export const noImportCycle = {
  meta: { type: 'problem', schema: [], messages: { cycle: 'import cycle: {{path}}' } },
  create(context) {
    const file = context.filename;
    return {
      ImportDeclaration(node) {
        const target = typeof node.source.value === 'string' && node.source.value.startsWith('.') ? resolveImport(file, node.source.value) : null;
        if (!target) return;
        const cycle = cycleThrough(file, target, importsFromDisk);
        if (!cycle) return;
        const root = context.cwd;
        context.report({ node, messageId: 'cycle', data: { path: cycle.map((f) => f.replace(`${root}/`, '')).join(' -> ') } });
      },
    };
  },
};
