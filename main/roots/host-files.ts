// A host's files as a read worker reads them: each call is asked of the thread that holds the host's
// connection (OpenCellReader answers it), so a cell on an SSH host is parsed off the thread that serves the
// window, as a local one is. A reply's bytes come back as a copy (a Uint8Array), made a Buffer again here.
import type { CellFs } from '../../runners';
import type { FsAnswer, FsCall, WorkerReply } from './worker-jobs';

type Waiting = { resolve: (value: unknown) => void; reject: (error: Error) => void };

export class HostFiles {
  private nextCall = 1;
  private readonly waiting = new Map<number, Waiting>();
  /** The job the calls are asked for: its replies keep its stall deadline away while the host answers. */
  job = 0;

  constructor(private readonly send: (message: WorkerReply) => void) {}

  /** The files of the SSH host `host`, for the job `job` where jobs run at once (else the one running now). */
  of(host: string, job?: number): CellFs {
    const ask = <T>(call: FsCall): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const id = this.nextCall++;
        this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        this.send({ type: 'fs', id: job ?? this.job, call: id, host, ...call });
      });
    return {
      list: (dir) => ask({ op: 'list', args: [dir] }),
      stat: (path) => ask({ op: 'stat', args: [path] }),
      read: (path, maxBytes) => ask({ op: 'read', args: [path, maxBytes] }),
      readFrom: (path, position, maxBytes) => ask({ op: 'readFrom', args: [path, position, maxBytes] }),
      async readBytes(path, position, maxBytes) {
        const got = await ask<{ bytes: Uint8Array; truncated: boolean } | null>({ op: 'readBytes', args: [path, position, maxBytes] });
        return got && { bytes: Buffer.from(got.bytes.buffer, got.bytes.byteOffset, got.bytes.byteLength), truncated: got.truncated };
      },
    };
  }

  /** The answer to a call: its result, or its error with its name (a HostUnavailableError stays one). */
  answered(answer: FsAnswer): void {
    const waiting = this.waiting.get(answer.call);
    this.waiting.delete(answer.call);
    if (!waiting) return;
    if (answer.error) waiting.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
    else waiting.resolve(answer.result);
  }
}
