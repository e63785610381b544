import { describe, expect, it } from 'vitest';
import type { RunInfo } from '../../shared/launch';
import { fleetOf } from './fleet';

const run = (host: string, state: RunInfo['state']) => ({ host, state }) as RunInfo;

describe('the fleet', () => {
  it("counts a host's runs running or queued of every run launched there, ended ones too", () => {
    const [local, gpu1] = fleetOf([{ alias: 'gpu1' } as never], [], [], [run('local', 'exited'), run('local', 'stopped'), run('gpu1', 'running'), run('gpu1', 'pending'), run('gpu1', 'crashed')], new Map());
    expect([local?.launchedRuns, local?.launchedTotal]).toEqual([0, 2]);
    expect([gpu1?.launchedRuns, gpu1?.launchedTotal]).toEqual([2, 3]);
  });
});
