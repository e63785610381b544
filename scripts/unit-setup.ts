// The unit run's global setup: the instant demo, written once for the files that copy it (runners/demo/testing.ts).
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { runDemo } from '../runners/demo';
import { DEMO_EPOCH_S } from '../runners/demo/testing';
import { tempDir } from '../runners/testing';

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = tempDir('cellwatch-unit-demo-');
  const runs = join(dir.path, 'runs');
  await runDemo(runs, { speed: 1, instant: true, startEpochS: DEMO_EPOCH_S });
  project.provide('instantDemo', runs);
  return dir.remove;
}
