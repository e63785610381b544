// For tests: cores that are closed after each test, whatever the test did.
import { afterEach } from 'vitest';
import { createCore, type Core, type CoreOptions } from './core';

/** A `createCore` for one test file: every core it starts is closed after the test that started it. */
export function closedAfterEach(): (options: CoreOptions) => Promise<Core> {
  const started: Core[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((core) => core.close()));
  });
  return async (options) => {
    const core = await createCore(options);
    started.push(core);
    return core;
  };
}
