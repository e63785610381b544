// A thread that reads parts of a long local log (common/split-lines.ts), sending each one's records back.
import { parentPort } from 'node:worker_threads';
import { syncLocalFs } from './common/fs';
import { readParts, type PartsJob, type PartsMessage } from './common/split-lines';
import { PART_READERS } from './part-readers';

parentPort?.once('message', async (job: PartsJob) => {
  const reader = PART_READERS.get(job.reader);
  if (!reader?.packer) throw new Error(`no reader named ${job.reader} reads parts`);
  await readParts(syncLocalFs(), job, { ...reader, packer: reader.packer }, (part, transfer) => parentPort?.postMessage({ type: 'part', part } satisfies PartsMessage, transfer));
  parentPort?.postMessage({ type: 'done' } satisfies PartsMessage);
});
