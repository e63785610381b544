import { ESLint, type Rule } from 'eslint';
import { describe, expect, it } from 'vitest';
import { errorHeardForLife, noUnboundedSpread } from './lint-rules.js';

const project = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

/** The lines `rule` reports in `source`, with their messages. */
async function reported(rule: Rule.RuleModule, source: string): Promise<[number, string][]> {
  const eslint = new ESLint({
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], plugins: { cellwatch: { rules: { rule } } }, rules: { 'cellwatch/rule': 'error' } }],
  });
  const [result] = await eslint.lintText(source, { filePath: 'x.ts' });
  return (result?.messages ?? []).map((m) => [m.line, m.message]);
}

describe("the project's own lint rules", () => {
  it("fails on once('error'), not on on('error') or once of another event", async () => {
    const found = await reported(errorHeardForLife, "client.once('error', fail);\nclient.on('error', fail);\nclient.once('ready', go);\n");
    expect(found.map(([line, message]) => [line, message.split(':')[0]])).toEqual([[1, "once('error') leaves the emitter's next error unheard, which ends the process"]]);
  });

  it('fails on push(...list) and Math.max(...list), not on a spread of a literal list or of other calls', async () => {
    const found = await reported(noUnboundedSpread, "rows.push(...records);\nMath.max(0, ...values);\nargs.push(...['-i', file]);\nrun(...args);\n");
    expect(found.map(([line]) => line)).toEqual([1, 2]);
  });

  it('keeps the transport in the data layer: a component that calls it or imports its type fails, the data layer may', async () => {
    const component = "import type { Transport } from '../../shared/contract';\nexport const load = (transport: Transport) => transport.call('board');\n";
    const rule = 'cellwatch/transport-in-data-layer';
    const found = async (filePath: string) => ((await project.lintText(component, { filePath }))[0]?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.line);
    expect(await found('renderer/src/board/Board.tsx')).toEqual([1, 2]);
    expect(await found('renderer/src/data/board.ts')).toEqual([]);
  });

  it("keeps places in the place module: 'local' and main/ssh/ imports fail outside it, not in it", async () => {
    const source = "import { HostFeed } from '../ssh/feed';\nexport const here = (host: string) => host === 'local';\nexport type F = HostFeed;\n";
    const rule = 'cellwatch/place-in-place-module';
    const found = async (filePath: string) => ((await project.lintText(source, { filePath }))[0]?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.line);
    expect(await found('main/roots/x.ts')).toEqual([1, 2]);
    expect(await found('renderer/src/x.tsx')).toEqual([1, 2]);
    expect(await found('main/place/x.ts')).toEqual([]);
  });
});
