// Comparing cells: policy versions side by side on one seed, recorded to mp4, and the paired test of two
// cells or versions. Each cell is read where it lives, a remote one over its host's connection.
import { join } from 'node:path';
import type { Comparison, RecordProgress } from '../../shared/cell-detail';
import type { Backend } from '../../shared/contract';
import type { PairedTest } from '../../shared/mcnemar';
import type { CellSummary } from '../../shared/model';
import type { ContextOf } from '../place/context';
import type { EventHub } from '../events';
import { findFfmpeg } from '../record/ffmpeg';
import { recordSlots } from '../record/slots';
import { splitAddress } from './paired';
import { compareSlots } from './slots';
import type { OpenCellReader } from '../watch/open-reader';
import type { PairSide } from '../roots/worker-jobs';

type CompareCalls = Pick<Backend, 'compare' | 'record' | 'pairedTest'>;

export class CompareService implements CompareCalls {
  constructor(
    private readonly cells: () => CellSummary[],
    private readonly cell: (id: string) => CellSummary,
    private readonly contextOf: ContextOf,
    private readonly events: EventHub,
    private readonly recordingsDir: string,
    /** Where the two sides of a paired test are read and paired, off the thread that serves the window. */
    private readonly reader: OpenCellReader,
  ) {}

  compare(slots: string, seed?: string): Promise<Comparison> {
    return compareSlots(slots, seed, this.cells(), this.contextOf);
  }

  /**
   * Starts the recording and returns its id at once; progress, the file or the failure arrive as `recordProgress`.
   * `own` learns the id before any of its progress is told (the window that asked hears it).
   */
  async record(slots: string, seed: string, seconds: number, fps: number, own: (id: string) => void = () => undefined) {
    const cells = this.cells();
    const comparison = await compareSlots(slots, seed, cells, this.contextOf);
    const ffmpeg = findFfmpeg();
    const id = `compare-${new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${seed}`;
    const out = join(this.recordingsDir, `${id}.mp4`);
    const emit = (progress: Omit<RecordProgress, 'id'>) => this.events.emit('recordProgress', { id, ...progress });
    own(id);
    recordSlots(ffmpeg, comparison, cells, this.contextOf, { seconds, fps, out }, (fraction) => emit({ fraction })).then(
      (result) => emit({ fraction: 1, file: out, url: `recordings/${id}.mp4`, ...(result.note ? { note: result.note } : {}) }),
      (error: Error) => emit({ fraction: 0, error: error.message }),
    );
    return { id };
  }

  /** The two sides are read and paired in an open-cell worker (a side on a host read over its connection); the window gets each list cut. */
  pairedTest(a: string, b: string): Promise<PairedTest> {
    const [sideA, sideB] = [a, b].map((address) => {
      const { cell: id, version } = splitAddress(address, (whole) => this.cells().some((c) => c.id === whole));
      const cell = this.cell(id);
      return { host: cell.host, dir: cell.path, format: cell.format, version };
    }) as [PairSide, PairSide];
    return this.reader.pair(sideA, sideB);
  }
}
