import { BRIDGE_NAME, type Transport } from '../../../shared/contract';

/** The bridge the Electron preload exposes, or undefined in a browser. */
export function electronBridge(): Transport | undefined {
  return (window as unknown as Record<string, Transport | undefined>)[BRIDGE_NAME];
}

/** Electron prefixes errors that cross IPC; the user needs only the core's own message. */
export function withPlainErrors(bridge: Transport): Transport {
  return {
    call: ((method, ...args) =>
      (bridge.call(method, ...args) as Promise<unknown>).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(message.replace(/^Error invoking remote method '[^']+': (Error: )?/, ''));
      })) as Transport['call'],
    on: (event, listener) => bridge.on(event, listener),
  };
}
