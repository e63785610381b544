// For tests: cores that are closed after each test, whatever the test did, a read held on cue, and the
// threads some work starts.
import { createHook } from 'node:async_hooks';
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

/** A read that counts its runs and, once shut, holds each until opened: what a slow read looks like, on cue. */
export class GatedRead {
  count = 0;
  private gate = Promise.resolve();
  private release: () => void = () => undefined;
  shut(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }
  open(): void {
    this.release();
  }
  run = async (): Promise<void> => {
    this.count++;
    await this.gate;
  };
}

/** How many worker threads `work` starts (each costs 60-110 ms of a core). */
export async function threadsStarted(work: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const hook = createHook({ init: (_, type) => void (type === 'WORKER' && started++) });
  hook.enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return started;
}
