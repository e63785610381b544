import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CellDelta, CellDetail, EpisodeRow, StreamEvent } from '../../../shared/cell-detail';
import type { Transport } from '../../../shared/contract';
import { mergeProblems, type Problem } from '../../../shared/model';
import { asError } from '../../../shared/errors';

/** Caps that keep a window open for days from growing without bound. */
const MAX_EVENTS = 20_000;
const MAX_VRAM = 20_000;
const MAX_PROBLEMS = 2_000;

export interface CellViewState {
  detail: CellDetail | null;
  error: Error | null;
  /** Problems of the cell: its summary's and those met while following it, newest last. */
  problems: Problem[];
  /** The stream shown in the event pane: an episode id, or the cell's log. */
  stream: string | null;
  events: StreamEvent[];
  startedMidFile: boolean;
  openStream(stream: string | null): Promise<void>;
  close(): Promise<void>;
}

export type CellStore = StoreApi<CellViewState>;

const byId = (a: EpisodeRow, b: EpisodeRow) => {
  const x = Number(a.id);
  const y = Number(b.id);
  return Number.isNaN(x) || Number.isNaN(y) ? 0 : x - y;
};

function upsert(rows: EpisodeRow[], changed: EpisodeRow[]): EpisodeRow[] {
  const index = new Map(rows.map((r, i) => [r.id, i]));
  const next = [...rows];
  let added = false;
  for (const row of changed) {
    const at = index.get(row.id);
    if (at === undefined) {
      next.push(row);
      added = true;
    } else next[at] = row;
  }
  return added ? next.sort(byId) : next;
}

/** The list with `more` appended, each problem once (a log's line may be met by the index and by a follower). */
const withProblems = (list: Problem[], more: Problem[]) => mergeProblems(list, more).slice(-MAX_PROBLEMS);

/** Applies a batch of deltas at once: the store changes, and the view renders, once per batch. */
export function applyDeltas(state: CellViewState, deltas: CellDelta[]): Partial<CellViewState> {
  if (!state.detail) return {};
  let { summary, episodes, versions, vram, tables, programs } = state.detail;
  let { events, problems } = state;
  for (const delta of deltas) {
    if (delta.summary) summary = { ...summary, ...delta.summary };
    if (delta.episodes) episodes = upsert(episodes, delta.episodes);
    if (delta.versions) versions = delta.versions;
    if (delta.tables) tables = delta.tables;
    if (delta.programs) programs = delta.programs;
    if (delta.vram) vram = [...vram, ...delta.vram].slice(-MAX_VRAM);
    if (delta.events) {
      const mine = delta.events.filter((e) => e.episode === state.stream);
      if (mine.length) events = [...events, ...mine].slice(-MAX_EVENTS);
    }
    if (delta.problems) problems = withProblems(problems, delta.problems);
  }
  return { detail: { ...state.detail, summary, episodes, versions, vram, tables, programs }, events, problems };
}

/** A frame at 60 Hz, in ms. */
const FRAME_MS = 1000 / 60;

export function createCellStore(transport: Transport, cellId: string): CellStore {
  let queue: CellDelta[] = [];
  let frame = 0;
  let appliedAt = -Infinity;
  const store = createStore<CellViewState>()((set, get) => ({
    detail: null,
    error: null,
    problems: [],
    stream: null,
    events: [],
    startedMidFile: false,
    async openStream(stream) {
      const previous = get().stream;
      if (previous === stream) return;
      set({ stream, events: [], startedMidFile: false });
      if (previous !== null) void transport.call('closeStream', cellId, previous).catch(() => undefined);
      if (stream === null) return;
      try {
        const opened = await transport.call('openStream', cellId, stream);
        // Events that arrived as deltas while the stream opened are newer than the ones read.
        if (get().stream === stream) {
          set((s) => ({ events: [...opened.events, ...s.events], startedMidFile: opened.startedMidFile, problems: withProblems(s.problems, opened.problems) }));
        }
      } catch (error) {
        set({ error: asError(error) });
      }
    },
    async close() {
      cancelAnimationFrame(frame);
      off();
      offReopened();
      offListed();
      await transport.call('closeCell', cellId).catch(() => undefined);
    },
  }));
  const failed = (error: unknown) => store.setState({ error: asError(error) });
  /** The connection came back: the cell is opened again, and its stream read on from just past the last event held. */
  async function reopen(): Promise<void> {
    const detail = await transport.call('openCell', cellId);
    store.setState((s) => ({ detail, error: null, problems: withProblems(s.problems, detail.summary.problems) }));
    const { stream, events: held } = store.getState();
    if (stream === null) return;
    const last = held.at(-1);
    const opened = await transport.call('openStream', cellId, stream, last ? { offset: last.end, line: last.line === null ? null : last.line + 1 } : undefined);
    if (store.getState().stream !== stream) return;
    // Held, then the gap's events, then any that arrived as deltas while it was read.
    store.setState((s) => ({ events: [...held, ...opened.events, ...s.events.slice(held.length)].slice(-MAX_EVENTS), problems: withProblems(s.problems, opened.problems) }));
  }
  const offReopened = transport.onReopened(() => void reopen().catch(failed));
  // A cell its root has not listed yet (a link to one a run has just made, opened before the root's rescan
  // finds it) opens once it is listed.
  const offListed = transport.on('cellsChanged', (delta) => {
    if (store.getState().error?.name === 'NotFoundError' && delta.added.some((cell) => cell.id === cellId)) void reopen().catch(failed);
  });
  const apply = () => {
    frame = 0;
    const batch = queue;
    queue = [];
    appliedAt = performance.now();
    store.setState((state) => applyDeltas(state, batch));
  };
  // At most one render a frame: a delta after a quiet frame is drawn at once (an event 20 ms apart from the
  // last waited up to a frame for nothing), those that follow within the frame together at the next one.
  const off = transport.on('cellChanged', (delta) => {
    if (delta.cellId !== cellId) return;
    queue.push(delta);
    if (frame) return;
    if (performance.now() - appliedAt >= FRAME_MS) apply();
    else frame = requestAnimationFrame(apply);
  });
  transport.call('openCell', cellId).then((detail) => store.setState({ detail, problems: detail.summary.problems }), failed);
  return store;
}
