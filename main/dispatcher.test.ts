import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedAfterEach } from './testing';
import { createDispatcher, type Dispatcher } from './dispatcher';
import { tempDir, writeTree } from '../runners/testing';
import { DispatchError } from '../shared/errors';

let tmp: ReturnType<typeof tempDir>;
let dispatcher: Dispatcher;
beforeEach(async () => {
  tmp = tempDir();
  writeTree(tmp.path, { 'runs/ui_x/run.json': { runner: 'coding-agent' } });
  dispatcher = createDispatcher(await startCore({ configDir: join(tmp.path, 'config'), transport: 'serve', rescan: false, nvidiaSmi: false }));
});
afterEach(() => tmp.remove());
// Registered after the folder's removal, so it runs before it: after-hooks run in reverse order.
const startCore = closedAfterEach();

describe('dispatcher', () => {
  it('runs contract methods with well-shaped arguments', async () => {
    await expect(dispatcher.call('addRoot', [join(tmp.path, 'runs')])).resolves.toMatchObject({ cellCount: 1 });
    await expect(dispatcher.call('listCells', [])).resolves.toHaveLength(1);
    await expect(dispatcher.call('listCells', [join(tmp.path, 'runs')])).resolves.toHaveLength(1);
  });

  it.each(['nope', 'events', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 42, null])(
    'rejects %j, which is not a contract method',
    async (method) => {
      await expect(dispatcher.call(method, [])).rejects.toThrow(DispatchError);
      await expect(dispatcher.call(method, [])).rejects.toThrow(/not in the contract/);
    },
  );

  it.each([
    ['addRoot', [42]],
    ['addRoot', []],
    ['addRoot', ['']],
    ['addRoot', ['/a', '/b']],
    ['addRoot', 'not-a-list'],
    ['getInfo', ['extra']],
    ['listCells', [{ path: '/x' }]],
    ['markAlertsRead', [1e308]],
    ['markAlertsRead', [-1]],
    ['readLog', ['local:/x', 'stdout.log', 1.5]],
    ['openStream', ['local:/x', '0', { offset: -1, line: 1 }]],
  ])('rejects %s with arguments %j', async (method, args) => {
    await expect(dispatcher.call(method, args)).rejects.toThrow(new RegExp(`^${method}: bad arguments`));
  });

  it('refuses to subscribe to an event outside the contract', () => {
    expect(() => dispatcher.on('secrets' as never, () => undefined)).toThrow(/not in the contract/);
  });
});
