import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const systemChromium = '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  // Specs that fail on purpose, run by teardown.spec.ts under their own config.
  testIgnore: 'failing/**',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  timeout: 60_000,
  // Two spec files at a time (each file's tests in order, its servers its own): every spec starts its
  // own server on a free port, and waits for what it sees, not for a time.
  fullyParallel: false,
  workers: 2,
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
