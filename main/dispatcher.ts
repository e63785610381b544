import { z } from 'zod';
import { isEventName, LOG_FILES, type Backend, type BackendEvents, type CallReply, type EventName, type Method, type Unsubscribe } from '../shared/contract';
import { prefsSchema } from './alerts/log';
import type { EventedBackend } from './core';
import { DispatchError } from '../shared/errors';

const path = z.string().min(1, 'a path is required').max(4096);
const cellId = z.string().min(1).max(4200);
const name = z.string().min(1).max(200);
const byteOffset = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A time in epoch milliseconds, up to the year 9999. */
const epochMs = z.number().int().min(0).max(253_402_300_799_999);

const launchRequest = z.strictObject({
  profile: z.string().min(1).max(200),
  values: z.record(z.string().regex(/^[a-z_]+$/), z.string().max(4096)),
  name: z.string().max(200).optional(),
  label: z.string().max(100).optional(),
  gpu: z.number().int().min(0).max(64).optional(),
  minFreeMib: z.number().int().min(0).max(16 << 20).optional(),
  override: z.boolean().optional(),
  target: z.string().min(1).max(200).optional(),
  slurm: z
    .strictObject({
      gpus: z.number().int().min(0).max(64).optional(),
      time: z.string().max(40).optional(),
      partition: z.string().max(200).optional(),
      extra: z.string().max(2000).optional(),
    })
    .optional(),
});

// One schema per contract method; Record<Method, ...> makes a missing one a compile error.
const argumentSchemas: { [M in Method]: z.ZodType<Parameters<Backend[M]>> } = {
  getInfo: z.tuple([]),
  listRoots: z.tuple([]),
  addRoot: z.tuple([path]),
  removeRoot: z.tuple([path]),
  listCells: z.union([z.tuple([]), z.tuple([path])]),
  pickFolder: z.tuple([]),
  pairedTest: z.tuple([cellId, cellId]),
  board: z.tuple([]),
  openCell: z.tuple([cellId]),
  closeCell: z.tuple([cellId]),
  setScorer: z.tuple([cellId, z.string().min(1).max(500).nullable()]),
  openStream: z.union([z.tuple([cellId, name]), z.tuple([cellId, name, z.strictObject({ offset: byteOffset, line: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable() })])]),
  closeStream: z.tuple([cellId, name]),
  transcript: z.tuple([cellId, z.string().min(1).max(600)]),
  gpuStatus: z.union([z.tuple([]), z.tuple([name])]),
  systemStatus: z.tuple([]),
  listProfiles: z.union([z.tuple([]), z.tuple([name])]),
  planLaunch: z.tuple([launchRequest]),
  launchRun: z.tuple([launchRequest]),
  listRuns: z.tuple([]),
  stopRun: z.tuple([name]),
  drainRun: z.tuple([name]),
  resumeRun: z.tuple([name, z.string().max(4096)]),
  planResume: z.tuple([name, z.string().max(4096)]),
  compare: z.union([z.tuple([z.string().min(1).max(2000)]), z.tuple([z.string().min(1).max(2000), z.string().regex(/^\d+$/)])]),
  listHosts: z.tuple([]),
  listFleet: z.tuple([]),
  acceptHostKey: z.tuple([name]),
  unlockHostKey: z.tuple([name, z.string().min(1).max(4096), z.string().max(4096)]),
  reconnectHost: z.tuple([name]),
  readLog: z.tuple([cellId, z.enum(LOG_FILES), byteOffset.nullable()]),
  listAlerts: z.tuple([]),
  markAlertsRead: z.tuple([epochMs]),
  setAlertPrefs: z.tuple([prefsSchema]),
  record: z.tuple([z.string().min(1).max(2000), z.string().regex(/^\d+$/), z.number().positive().max(3600), z.number().positive().max(120)]),
  listFrames: z.tuple([
    cellId,
    z.union([
      z.strictObject({ kind: z.literal('episode'), episode: z.string().regex(/^\d+$/) }),
      z.strictObject({ kind: z.enum(['dev', 'replay']), version: z.string().regex(/^v\d{3}$/), seed: z.string().regex(/^\d+$/) }),
    ]),
  ]),
};


function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.hasOwn(argumentSchemas, name);
}

export interface Dispatcher {
  /** Runs a call that arrived over a transport; rejects with DispatchError when it is not in the contract. */
  call(method: unknown, args: unknown): Promise<unknown>;
  /** The same call, its outcome as a transport carries it: the result, or the error's kind and message. */
  reply(method: unknown, args: unknown): Promise<CallReply>;
  on<E extends EventName>(event: E, listener: (payload: BackendEvents[E]) => void): Unsubscribe;
}

function describe(issues: z.core.$ZodIssue[]): string {
  return issues.map((i) => (i.path.length ? `argument ${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/** The boundary both transports go through: only contract methods, only well-shaped arguments. */
export function createDispatcher(core: EventedBackend): Dispatcher {
  const call = async (method: unknown, args: unknown) => {
    if (!isMethod(method)) throw new DispatchError(`unknown method ${JSON.stringify(method)}: not in the contract`);
    const parsed = argumentSchemas[method].safeParse(args);
    if (!parsed.success) throw new DispatchError(`${method}: bad arguments: ${describe(parsed.error.issues)}`);
    const fn = core[method] as (...a: unknown[]) => Promise<unknown>;
    return fn.apply(core, parsed.data as unknown[]);
  };
  return {
    call,
    async reply(method, args) {
      try {
        return { ok: true, result: await call(method, args) };
      } catch (error) {
        const { name, message } = error instanceof Error ? error : new Error(String(error));
        return { ok: false, error: { name, message } };
      }
    },
    on(event, listener) {
      if (!isEventName(event)) throw new DispatchError(`unknown event ${JSON.stringify(event)}: not in the contract`);
      return core.events.on(event, listener);
    },
  };
}
