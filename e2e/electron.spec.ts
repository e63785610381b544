import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronBinary } from '../scripts/deps.mjs';
import { ROOT } from './processes';

const binary = electronBinary();

test.skip(binary === null, 'no Electron binary here (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1); serve mode covers the renderer');

test('the window opens on the empty state, with the folder picker and the bridge only', async () => {
  const userData = mkdtempSync(join(tmpdir(), 'cellwatch-electron-'));
  const app = await electron.launch({ executablePath: binary as string, args: [ROOT, `--user-data-dir=${userData}`, '--no-sandbox'] });
  try {
    const window = await app.firstWindow();
    await expect(window.locator('body[data-ready="true"]')).toBeAttached();
    await expect(window.getByRole('heading', { name: 'No runs root yet' })).toBeVisible();
    await expect(window.getByRole('button', { name: 'Choose folder…' })).toBeVisible();
    expect(await window.evaluate(() => Object.keys((window as unknown as { cellwatch: object }).cellwatch).sort())).toEqual(['call', 'on']);
    expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
  } finally {
    await app.close();
    rmSync(userData, { recursive: true, force: true });
  }
});
