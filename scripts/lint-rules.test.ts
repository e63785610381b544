import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { errorHeardForLife, noUnboundedSpread } from './lint-rules.js';

describe('the project\'s own lint rules', () => {
  it("fails on once('error'), not on on('error') or once of another event", async () => {
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], plugins: { cellwatch: { rules: { 'error-heard-for-life': errorHeardForLife } } }, rules: { 'cellwatch/error-heard-for-life': 'error' } }],
    });
    const source = "client.once('error', fail);\nclient.on('error', fail);\nclient.once('ready', go);\n";
    const [result] = await eslint.lintText(source, { filePath: 'x.ts' });
    expect(result?.messages.map((m) => [m.line, m.message.split(':')[0]])).toEqual([[1, "once('error') leaves the emitter's next error unheard, which ends the process"]]);
  });

  it('fails on push(...list) and Math.max(...list), not on a spread of a literal list or of other calls', async () => {
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], plugins: { cellwatch: { rules: { 'no-unbounded-spread': noUnboundedSpread } } }, rules: { 'cellwatch/no-unbounded-spread': 'error' } }],
    });
    const source = "rows.push(...records);\nMath.max(0, ...values);\nargs.push(...['-i', file]);\nrun(...args);\n";
    const [result] = await eslint.lintText(source, { filePath: 'x.ts' });
    expect(result?.messages.map((m) => m.line)).toEqual([1, 2]);
  });
});
