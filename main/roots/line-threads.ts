// The threads a long read of a local log is split among (runners/common/split-lines.ts): started for a
// read and ended once no part is left. Only reads of tens of megabytes are split, so a thread's start (tens
// of milliseconds) is small beside them; a thread that starts late claims fewer parts.
import { availableParallelism } from 'node:os';
import type { LineSplitter, PartRead, PartsJob, PartsMessage } from '../../runners/common/split-lines';
import { startThread, workersScript } from './worker-script';

/** About the bytes of a part: small enough that threads finish together, large beside a part's own cost. */
const PART_BYTES = 32 * 1024 * 1024;

function readOnThread(script: URL | string, job: PartsJob, onPart: (part: PartRead) => void): Promise<void> {
  const worker = startThread(script, 'lines');
  return new Promise<void>((resolve, reject) => {
    worker.on('message', (message: PartsMessage) => (message.type === 'part' ? onPart(message.part) : resolve()));
    worker.on('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread reading parts of ${job.label} stopped (exit code ${code})`)));
    worker.postMessage(job);
  }).finally(() => void worker.terminate());
}

/**
 * Parts of long local logs read on threads of the workers' script (`script`, asked for at the first read),
 * as many at once as there are cores, to 4.
 */
export function lineThreads(script: () => URL | string = workersScript, threads = Math.min(4, availableParallelism()), partBytes = PART_BYTES): LineSplitter {
  return { threads, partBytes, read: (job, onPart) => readOnThread(script(), job, onPart) };
}
