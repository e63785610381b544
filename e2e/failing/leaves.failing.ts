// Each spec here fails while processes it started are running: a serve that is up, and a command whose hook
// times out before it prints a URL. teardown.spec.ts checks that none of them outlives the run.
import { expect, test } from '@playwright/test';
import { CLI, startServing, type Served } from '../processes';

const marked = { CELLWATCH_LEAK_MARK: process.env.CELLWATCH_LEAK_MARK };

test.describe('a test that fails while serve runs', () => {
  let served: Served;
  test.beforeAll(async () => {
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', '--no-demo'], marked);
  });
  test('fails', () => {
    expect(served.url).toBe('a failure on purpose');
  });
});

test.describe('a hook that times out', () => {
  test.beforeAll(async () => {
    // A parent and a grandchild that never print a URL; the hook gets two seconds, far less than startServing's own wait.
    const pending = startServing('sh', ['-c', 'sleep 300 & sleep 300'], marked, 60_000);
    test.setTimeout(2_000);
    await pending;
  });
  test('never runs', () => {});
});
