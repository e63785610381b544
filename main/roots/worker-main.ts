// The script of every worker thread of the app, as the thread starting it says (worker-script.ts): a read
// worker (read-worker.ts), or a thread reading parts of a long log (runners/lines-worker.ts). One script:
// a read worker starts the parts' threads from its own.
import { workerData } from 'node:worker_threads';
import type { WorkerRole } from './worker-script';

if ((workerData as WorkerRole | undefined)?.role === 'lines') await import('../../runners/lines-worker');
else await import('./read-worker');
