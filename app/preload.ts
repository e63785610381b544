// Sandboxed preload: exposes exactly {call, on} and nothing of Node or Electron.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { BRIDGE_NAME, IPC_CALL, IPC_EVENT } from '../shared/contract';

contextBridge.exposeInMainWorld(BRIDGE_NAME, {
  call: (method: string, ...args: unknown[]) => ipcRenderer.invoke(IPC_CALL, method, args),
  on: (event: string, listener: (payload: unknown) => void) => {
    const handler = (_e: IpcRendererEvent, name: string, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(IPC_EVENT, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT, handler);
    };
  },
});
