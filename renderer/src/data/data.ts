// The renderer's one way to the core: views read feeds (asked once, kept current by events) and call the
// actions here; no component holds the transport.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Backend, BoardReport, FleetHost, Transport } from '../../../shared/contract';
import type { RecordProgress } from '../../../shared/cell-detail';
import type { RunInfo } from '../../../shared/launch';
import type { GpuSample, GpuStatus, SystemSample } from '../../../shared/machine';
import { isLocal } from '../../../shared/address';
import { problem } from '../../../shared/model';
import type { Presence } from '../../../shared/presence';
import { createCellStore, type CellStore } from './cellStore';
import { Feed } from './feed';

/** How many of a host's GPU samples a window keeps. */
const GPU_KEPT = 600;

const withSample = (status: GpuStatus | null, sample: GpuSample): GpuStatus => ({
  available: true,
  problems: status?.problems ?? [],
  history: [...(status?.history ?? []), sample].slice(-GPU_KEPT),
});

type Calls<M extends keyof Backend> = Pick<Backend, M>;

export interface Data {
  /** The boards of the listed cells: asked again as cells change, at most every 2 s. */
  board: Feed<BoardReport>;
  /** Every host at a glance: asked again as hosts, cells, runs or GPUs change, at most every 2 s. */
  fleet: Feed<FleetHost[]>;
  /** The launched runs, as the core tells each change. */
  runs: Feed<RunInfo[]>;
  /** This machine's CPU, memory and disks, every 5 s while shown (no event tells a machine's load). */
  system: Feed<SystemSample>;
  /** A place's GPUs (LOCAL: this machine's; or an SSH host's): its status, then each sample. */
  gpuOf(host: string): Feed<GpuStatus>;
  /** Whether the core answers the window now. */
  presence: StoreApi<{ presence: Presence }>;
  hosts: Calls<'acceptHostKey' | 'unlockHostKey' | 'reconnectHost'>;
  launch: Calls<'listProfiles' | 'planLaunch' | 'launchRun' | 'stopRun' | 'drainRun' | 'resumeRun' | 'planResume'>;
  stats: Calls<'pairedTest' | 'compare'>;
  /** Starts a recording; its progress goes to `onProgress` until the file is there or it failed. */
  record(slots: string, seed: string, seconds: number, fps: number, onProgress: (progress: RecordProgress) => void): Promise<void>;
  /** A cell open in the view: its detail, then its deltas, until the store is closed. */
  openCell(cellId: string): CellStore;
  /** A cell's files as the cell view reads them. */
  cell: Calls<'listFrames' | 'transcript' | 'readLog' | 'setScorer'>;
}

export function createData(transport: Transport): Data {
  const call =
    <M extends keyof Backend>(method: M) =>
    (...args: Parameters<Backend[M]>) =>
      transport.call(method, ...args);
  const calls = <M extends keyof Backend>(...methods: M[]) => Object.fromEntries(methods.map((m) => [m, call(m)])) as unknown as Calls<M>;
  const gpus = new Map<string, Feed<GpuStatus>>();
  const presence = createStore<{ presence: Presence }>()(() => ({ presence: transport.presence }));
  transport.onPresence((now) => presence.setState({ presence: now }));
  return {
    board: new Feed(transport, { ask: () => transport.call('board'), asksAgainOn: ['cellsChanged', 'rootsChanged'], gapMs: 2000 }),
    fleet: new Feed(transport, { ask: () => transport.call('listFleet'), asksAgainOn: ['hostsChanged', 'cellsChanged', 'runsChanged', 'gpuSample'], gapMs: 2000 }),
    runs: new Feed(transport, { ask: () => transport.call('listRuns'), takes: { runsChanged: (_, runs) => runs } }),
    system: new Feed(transport, { ask: () => transport.call('systemStatus'), everyMs: 5000 }),
    gpuOf(host) {
      let feed = gpus.get(host);
      if (!feed) {
        // This machine's samples come without a host.
        const of = isLocal(host) ? undefined : host;
        feed = new Feed(transport, {
          ask: () => transport.call('gpuStatus', ...(of === undefined ? [] : [of])).catch((error: Error): GpuStatus => ({ available: false, problems: [problem(host, error.message)], history: [] })),
          takes: { gpuSample: (status, sample) => (sample.host === of ? withSample(status, sample) : status) },
        });
        gpus.set(host, feed);
      }
      return feed;
    },
    presence,
    hosts: calls('acceptHostKey', 'unlockHostKey', 'reconnectHost'),
    launch: calls('listProfiles', 'planLaunch', 'launchRun', 'stopRun', 'drainRun', 'resumeRun', 'planResume'),
    stats: calls('pairedTest', 'compare'),
    async record(slots, seed, seconds, fps, onProgress) {
      // A recording that fails at once reports before its id is back: what arrives meanwhile waits.
      let id: string | null = null;
      const early = new Map<string, RecordProgress>();
      const off = transport.on('recordProgress', (progress) => {
        if (id === null) early.set(progress.id, progress);
        else if (progress.id === id) tell(progress);
      });
      const tell = (progress: RecordProgress) => {
        onProgress(progress);
        if (progress.url || progress.error) off();
      };
      try {
        id = (await transport.call('record', slots, seed, seconds, fps)).id;
      } catch (error) {
        off();
        throw error;
      }
      const reported = early.get(id);
      if (reported) tell(reported);
    },
    openCell: (cellId) => createCellStore(transport, cellId),
    cell: calls('listFrames', 'transcript', 'readLog', 'setScorer'),
  };
}
