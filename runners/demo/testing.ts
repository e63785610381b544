// The demo as unit tests read it: written at once by the unit run's global setup (scripts/unit-setup.ts),
// and copied by each file that reads it as its data (0.5-1 s of CPU), where each wrote its own (4-6 s).
import { cpSync } from 'node:fs';
import { inject } from 'vitest';

/** The nominal start of the demo the tests read (epoch seconds): its timestamps are the same each run. */
export const DEMO_EPOCH_S = 1_764_403_200;

/** The instant demo, started at DEMO_EPOCH_S, as it would be written into `root`. */
export function copyInstantDemo(root: string): void {
  cpSync(inject('instantDemo'), root, { recursive: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    instantDemo: string;
  }
}
