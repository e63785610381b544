// The Electron shell's wiring, against a stand-in `electron` module (no binary here), and the packaged
// binary's fuses as electron-builder validates its configuration.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** A stand-in for what app/main.ts uses of Electron; `locked` says whether another instance holds the lock. */
function electronStub(locked: boolean) {
  const handlers = new Map<string, (...args: unknown[]) => void>();
  const app = {
    requestSingleInstanceLock: vi.fn(() => !locked),
    quit: vi.fn(),
    setPath: vi.fn(),
    getPath: vi.fn(() => '/tmp/cellwatch-app-test'),
    isPackaged: false,
    on: vi.fn((event: string, handler: (...args: unknown[]) => void) => handlers.set(event, handler)),
    whenReady: vi.fn(() => new Promise<void>(() => undefined)),
  };
  const shell = { openExternal: vi.fn(async () => undefined), openPath: vi.fn(async () => '') };
  return { app, handlers, shell, module: { app, BrowserWindow: vi.fn(), dialog: {}, ipcMain: {}, net: {}, protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() }, session: {}, shell } };
}

afterEach(() => {
  vi.resetModules();
  vi.doUnmock('electron');
});

describe('the Electron shell', () => {
  it('quits at once when another Cellwatch holds this config folder, opening no window and no core', async () => {
    const stub = electronStub(true);
    vi.doMock('electron', () => stub.module);
    await import('./main');
    expect(stub.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(stub.app.quit).toHaveBeenCalled();
    expect(stub.app.whenReady).not.toHaveBeenCalled();
    expect(stub.module.BrowserWindow).not.toHaveBeenCalled();
  });

  it('takes the lock when it is free, and answers a second start by showing its window', async () => {
    const stub = electronStub(false);
    vi.doMock('electron', () => stub.module);
    await import('./main');
    expect(stub.app.quit).not.toHaveBeenCalled();
    expect(stub.app.whenReady).toHaveBeenCalled();
    expect(stub.handlers.has('second-instance')).toBe(true);
  });

  it("opens a recording in the system's player from its file, a web page in the browser, and nothing of the app's own origin", async () => {
    const stub = electronStub(false);
    vi.doMock('electron', () => stub.module);
    const { openOutside } = await import('./main');
    const media = vi.fn(async (path: string) => (path === '/recordings/compare-1.mp4' ? { file: '/data/recordings/compare-1.mp4' } : null));
    await openOutside('cellwatch://app/recordings/compare-1.mp4', media);
    expect(stub.shell.openPath).toHaveBeenCalledWith('/data/recordings/compare-1.mp4');
    await openOutside('https://github.com/UKGovernmentBEIS/inspect_ai', media);
    expect(stub.shell.openExternal).toHaveBeenCalledWith('https://github.com/UKGovernmentBEIS/inspect_ai');
    await openOutside('cellwatch://app/index.html', media);
    await openOutside('file:///etc/passwd', media);
    expect(stub.shell.openPath).toHaveBeenCalledTimes(1);
    expect(stub.shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('packages a binary with its fuses flipped, in a configuration electron-builder accepts', async () => {
    const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'));
    const require = createRequire(import.meta.url);
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as { validateConfiguration: (c: object, log: object) => Promise<void> };
    const { DebugLogger } = require('builder-util/out/DebugLogger.js') as { DebugLogger: new (enabled: boolean) => object };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    // The check is real: a fuse it does not know is refused.
    await expect(validateConfiguration({ ...config, electronFuses: { runAsNod: false } }, new DebugLogger(false))).rejects.toThrow(/Invalid configuration object. electron-builder/);
    expect(config.electronFuses).toMatchObject({ runAsNode: false, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false, onlyLoadAppFromAsar: true, enableEmbeddedAsarIntegrityValidation: true });
  });
});
