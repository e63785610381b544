// The Electron shell: one window onto the Node core, over IPC. Everything else lives in main/.
import { app, BrowserWindow, dialog, ipcMain, net, protocol, session, shell, type IpcMainInvokeEvent } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EVENTS, IPC_CALL, IPC_EVENT } from '../shared/contract';
import { createCore, type Core } from '../main/core';
import { createDispatcher } from '../main/dispatcher';
import { CONTENT_SECURITY_POLICY, mimeOf, resolveStatic } from '../main/static';
import { isMediaPath, mediaAnswer } from '../main/media';
import { counted } from '../shared/counts';

const SCHEME = 'cellwatch';
const ORIGIN = `${SCHEME}://app`;
const outDir = dirname(dirname(fileURLToPath(import.meta.url)));

const userDataArg = process.argv.find((arg) => arg.startsWith('--user-data-dir='));
if (userDataArg) app.setPath('userData', userDataArg.slice('--user-data-dir='.length));

protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);

/** The app's own pages only: a run directory's media, though served from the same scheme, never reaches the bridge. */
const isTrusted = (url: string | undefined) => {
  if (url === undefined || !(url === ORIGIN || url.startsWith(`${ORIGIN}/`))) return false;
  return !isMediaPath(new URL(url).pathname);
};

/**
 * A link the window opens outside itself (it opens no window of its own origin): a web page in the browser,
 * a cell's media or a recording in the system's player, from its file here.
 */
export async function openOutside(url: string, media: Core['media']): Promise<void> {
  if (url.startsWith('https://') || url.startsWith('http://')) return void (await shell.openExternal(url));
  if (!url.startsWith(`${ORIGIN}/`) || !isMediaPath(new URL(url).pathname)) return;
  const found = await media(new URL(url).pathname);
  if (found && 'file' in found) await shell.openPath(found.file);
}

async function serveApp(core: Core, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.host !== 'app') return new Response('not found', { status: 404 });
  if (isMediaPath(url.pathname)) {
    const answer = await mediaAnswer(core.media, url.pathname);
    if (!answer) return new Response('not found', { status: 404 });
    const { media, headers } = answer;
    const body = 'bytes' in media ? new Uint8Array(media.bytes) : (await net.fetch(pathToFileURL(media.file).toString())).body;
    return new Response(body, { headers });
  }
  const file = await resolveStatic(join(outDir, 'renderer'), url.pathname);
  if (!file) return new Response('not found', { status: 404 });
  const response = await net.fetch(pathToFileURL(file).toString());
  return new Response(response.body, {
    headers: { 'content-type': mimeOf(file), 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff' },
  });
}

let opened: BrowserWindow | undefined;

async function openWindow(): Promise<void> {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Cellwatch',
    backgroundColor: '#15171b',
    webPreferences: {
      preload: join(outDir, 'app', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  opened = win;
  const core = await createCore({
    configDir: app.getPath('userData'),
    transport: 'electron',
    commandLineRoots: process.argv.slice(app.isPackaged ? 1 : 2).filter((arg) => !arg.startsWith('-')),
    demoRoot: process.argv.includes('--no-demo') ? undefined : join(app.getPath('userData'), 'demo-runs'),
    nvidiaSmi: process.env.CELLWATCH_NVIDIA_SMI ?? 'nvidia-smi',
    pickFolder: async () => {
      const picked = await dialog.showOpenDialog(win, { title: 'Add a runs root', properties: ['openDirectory'] });
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
  });
  protocol.handle(SCHEME, (request) => serveApp(core, request));
  const client = core.client();
  const dispatcher = createDispatcher(client);

  ipcMain.handle(IPC_CALL, (event: IpcMainInvokeEvent, method: unknown, args: unknown) => {
    if (event.sender !== win.webContents || !isTrusted(event.senderFrame?.url)) throw new Error('call refused: untrusted sender');
    // A reply, not a throw: Electron would keep only an error's message, and the window needs its kind too.
    return dispatcher.reply(method, args);
  });
  const unsubscribes = EVENTS.map((name) => dispatcher.on(name, (payload) => win.webContents.send(IPC_EVENT, name, payload)));
  // On quit, runs this app launched are stopped or left running, as the user says; left runs are found again by pid.
  let asked = false;
  app.on('before-quit', (event) => {
    if (asked) return;
    event.preventDefault();
    void core.listRuns().then(async (runs) => {
      const running = runs.filter((r) => r.state === 'running');
      let answer = 1;
      if (running.length) {
        ({ response: answer } = await dialog.showMessageBox(win, {
          type: 'question',
          message: `${counted(running.length, 'run')} launched from Cellwatch ${running.length === 1 ? 'is' : 'are'} still running.`,
          detail: running.map((r) => r.name).join('\n'),
          buttons: ['Stop them', 'Leave them running', 'Cancel'],
          defaultId: 1,
          cancelId: 2,
        }));
      }
      if (answer === 2) return;
      if (answer === 0) await Promise.all(running.map((r) => core.stopRun(r.id)));
      asked = true;
      app.quit();
    });
  });
  win.on('closed', () => {
    unsubscribes.forEach((off) => off());
    ipcMain.removeHandler(IPC_CALL);
    void client.dispose().then(() => core.close());
  });

  win.webContents.on('will-navigate', (event, url) => {
    if (!isTrusted(url)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    void openOutside(url, (path) => core.media(path));
    return { action: 'deny' };
  });
  await win.loadURL(`${ORIGIN}/index.html`);
}

// One Cellwatch per config folder (its userData): a second start shows the first's window and quits, rather
// than a second core writing the same state files and watching the same roots.
if (!app.requestSingleInstanceLock()) app.quit();
else {
  app.on('second-instance', () => {
    if (opened?.isMinimized()) opened.restore();
    opened?.focus();
  });
  app.whenReady().then(async () => {
    // The app's own page may show system notifications (alerts); nothing else is ever granted.
    const allowed = (permission: string, url: string | undefined) => permission === 'notifications' && isTrusted(url);
    session.defaultSession.setPermissionRequestHandler((contents, permission, callback) => callback(allowed(permission, contents.getURL())));
    session.defaultSession.setPermissionCheckHandler((_contents, permission, origin) => allowed(permission, `${origin}/`));
    await openWindow();
  });
  app.on('window-all-closed', () => app.quit());
}
