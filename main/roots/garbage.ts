// What a read worker gives back after a job. A job that read hundreds of MB (a 100 MB row, two summaries of
// 500,000 seeds) leaves them as garbage an idle worker keeps for tens of seconds, in the app's memory: past
// twice what it held after its last collection (and 128 MB), a full collection gives them back. A worker
// cannot be started with --expose-gc; a context made after the flag is set has gc (as jest's leak detector
// does it).
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const LEAST_COLLECTED = 128 << 20;
let collectPast = LEAST_COLLECTED;

/** The worker's heap and what its buffers hold outside it (a 100 MB row read is a 100 MB buffer). */
const held = (used: boolean) => {
  const heap = getHeapStatistics();
  return (used ? heap.used_heap_size : heap.total_heap_size) + heap.external_memory;
};

export function collectGarbage(): void {
  if (held(false) <= collectPast) return;
  collect();
  collectPast = Math.max(LEAST_COLLECTED, 2 * held(true));
}
