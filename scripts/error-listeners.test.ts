import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { errorHeardForLife } from './error-listeners.js';

describe('the error-listener rule', () => {
  it("fails on once('error'), not on on('error') or once of another event", async () => {
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], plugins: { cellwatch: { rules: { 'error-heard-for-life': errorHeardForLife } } }, rules: { 'cellwatch/error-heard-for-life': 'error' } }],
    });
    const source = "client.once('error', fail);\nclient.on('error', fail);\nclient.once('ready', go);\n";
    const [result] = await eslint.lintText(source, { filePath: 'x.ts' });
    expect(result?.messages.map((m) => [m.line, m.message.split(':')[0]])).toEqual([[1, "once('error') leaves the emitter's next error unheard, which ends the process"]]);
  });
});
