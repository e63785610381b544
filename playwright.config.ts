import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const systemChromium = '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  // Specs that fail on purpose, run by teardown.spec.ts under their own config.
  testIgnore: 'failing/**',
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
  // half the cores idle (164 s); three take 138 s, and pass with both cores busy with other work.
  fullyParallel: false,
  workers: 3,
  reporter: [['list'], ['json', { outputFile: 'out/test-results/e2e.json' }]],
  outputDir: 'out/test-results/e2e',
  use: {
    headless: true,
    launchOptions: {
      executablePath: existsSync(systemChromium) ? systemChromium : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
