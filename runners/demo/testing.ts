// The demo as unit tests read it: written at once by the unit run's global setup (scripts/unit-setup.ts),
// and copied by each file that reads it as its data (copyDemo), where each wrote its own (4-6 s of CPU).
import { inject } from 'vitest';
import { copyDemo } from './copy';

/** The nominal start of the demo the tests read (epoch seconds): its timestamps are the same each run. */
export const DEMO_EPOCH_S = 1_764_403_200;

/** The instant demo, started at DEMO_EPOCH_S, as it would be written into `root`. */
export function copyInstantDemo(root: string): void {
  copyDemo(inject('instantDemo'), root);
}

declare module 'vitest' {
  export interface ProvidedContext {
    instantDemo: string;
  }
}
