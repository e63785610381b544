import { BRIDGE_NAME, unwrapReply, type CallReply, type Transport } from '../../../shared/contract';

/** What the Electron preload exposes: calls answer with a reply that carries an error's kind. */
interface Bridge {
  call(method: string, ...args: unknown[]): Promise<CallReply>;
  on: Transport['on'];
}

/** The contract over the Electron bridge, or undefined in a browser. */
export function electronTransport(): Transport | undefined {
  const bridge = (window as unknown as Record<string, Bridge | undefined>)[BRIDGE_NAME];
  if (!bridge) return undefined;
  return {
    // A refused sender still throws across IPC: that error keeps only its message.
    call: ((method: string, ...args: unknown[]) => bridge.call(method, ...args).then(unwrapReply)) as Transport['call'],
    on: (event, listener) => bridge.on(event, listener),
    // IPC never drops: the window and the core live and end together.
    onReopened: () => () => undefined,
    presence: 'live',
    onPresence: () => () => undefined,
  };
}
