// Comparing cells: policy versions side by side on one seed, recorded to mp4, and the paired test of two
// cells or versions. Each cell is read where it lives, a remote one over its host's connection.
import { join } from 'node:path';
import type { Comparison, RecordProgress } from '../../shared/cell-detail';
import type { Backend } from '../../shared/contract';
import { listedForView, type PairedTest } from '../../shared/mcnemar';
import type { CellSummary } from '../../shared/model';
import type { ContextOf } from '../host-context';
import type { EventHub } from '../events';
import { findFfmpeg } from '../record/ffmpeg';
import { recordSlots } from '../record/slots';
import { compareSides, readSide, splitAddress } from './paired';
import { compareSlots } from './slots';
import type { OpenCellReader } from '../watch/open-reader';

type CompareCalls = Pick<Backend, 'compare' | 'record' | 'pairedTest'>;
type Place = { cell: CellSummary; version: string | null };

export class CompareService implements CompareCalls {
  constructor(
    private readonly cells: () => CellSummary[],
    private readonly cell: (id: string) => CellSummary,
    private readonly contextOf: ContextOf,
    private readonly events: EventHub,
    private readonly recordingsDir: string,
    /** Where two local sides of a paired test are read and paired, off the thread that serves the window. */
    private readonly reader?: OpenCellReader,
  ) {}

  compare(slots: string, seed?: string): Promise<Comparison> {
    return compareSlots(slots, seed, this.cells(), this.contextOf);
  }

  /** Starts the recording and returns its id at once; progress, the file or the failure arrive as `recordProgress`. */
  async record(slots: string, seed: string, seconds: number, fps: number) {
    const cells = this.cells();
    const comparison = await compareSlots(slots, seed, cells, this.contextOf);
    const ffmpeg = findFfmpeg();
    const id = `compare-${new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${seed}`;
    const out = join(this.recordingsDir, `${id}.mp4`);
    const emit = (progress: Omit<RecordProgress, 'id'>) => this.events.emit('recordProgress', { id, ...progress });
    recordSlots(ffmpeg, comparison, cells, this.contextOf, { seconds, fps, out }, (fraction) => emit({ fraction })).then(
      (result) => emit({ fraction: 1, file: out, url: `recordings/${id}.mp4`, ...(result.note ? { note: result.note } : {}) }),
      (error: Error) => emit({ fraction: 0, error: error.message }),
    );
    return { id };
  }

  /** Two local sides are read and paired in an open-cell worker; a side on a host is read over its connection. The window gets each list cut (listedForView). */
  async pairedTest(a: string, b: string): Promise<PairedTest> {
    const [placeA, placeB] = [a, b].map((address) => {
      const { cell: id, version } = splitAddress(address, (whole) => this.cells().some((c) => c.id === whole));
      return { cell: this.cell(id), version };
    }) as [Place, Place];
    const local = (p: Place) => ({ dir: p.cell.path, format: p.cell.format, version: p.version });
    if (this.reader && placeA.cell.host === 'local' && placeB.cell.host === 'local') return this.reader.pair(local(placeA), local(placeB));
    const side = ({ cell, version }: Place) => readSide(cell.path, cell.format, version, this.contextOf(cell).read());
    const [sideA, sideB] = await Promise.all([side(placeA), side(placeB)]);
    return listedForView(compareSides(sideA, sideB));
  }
}
