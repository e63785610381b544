import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's builds where installed (scripts/system-tools.mjs installs them), else Playwright's own.
const systemChromium = '/usr/bin/chromium';
const systemHeadlessShell = '/usr/bin/chromium-headless-shell';
/**
 * The spec of system notifications: the whole browser has them; Chromium's headless shell (the same
 * Blink and V8 without the browser's own layers) says they are denied.
 */
const NOTIFYING = ['alerts.spec.ts'];
const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  // A spec's limit ends a hang; it does not race the machine: with both cores busy layout.spec took 39 s
  // here (10 s free), and CI ran one spec at a third of this machine's speed.
  timeout: 120_000,
  // An assertion waits for what a user would see, not for a time: on a busy machine a cell's view can take
  // several seconds to open (CI's run at 1a804e5 gave up on one after Playwright's default 5 s).
  expect: { timeout: 15_000 },
  // Three spec files at a time (each file's tests in order, its servers its own): every spec starts its
  // own server on a free port, and waits for what it sees, not for a time. On 2 cores two at a time left
  // half the cores idle; three pass with both cores busy with other work too.
  fullyParallel: false,
  workers: 3,
  reporter: [['list'], ['json', { outputFile: 'out/test-results/e2e.json' }]],
  outputDir: 'out/test-results/e2e',
  projects: [
    // First in the queue: it is among the longest, so no worker is left running it alone at the end.
    {
      name: 'chromium',
      testMatch: NOTIFYING,
      use: existsSync(systemChromium) ? { launchOptions: { executablePath: systemChromium, args } } : { channel: 'chromium', launchOptions: { args } },
    },
    // Every other spec in the headless shell, whose Chromium took half the CPU the whole browser takes (the
    // e2e stage 3.0-3.1 min against 4.5-4.8 min on 2 cores); not the specs that fail on purpose, which
    // teardown.spec.ts runs under their own config.
    { name: 'headless-shell', testIgnore: ['failing/**', ...NOTIFYING], use: { launchOptions: { executablePath: existsSync(systemHeadlessShell) ? systemHeadlessShell : undefined, args } } },
  ],
  use: { headless: true },
});
