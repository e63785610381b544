// Runs the specs that fail on purpose (teardown.spec.ts starts it): the suite's set-up (but its demo) and teardown.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.failing.ts',
  timeout: 10_000,
  workers: 1,
  reporter: 'line',
  outputDir: '../../out/test-results/failing',
  globalSetup: './global-setup.ts',
  globalTeardown: '../global-teardown.ts',
});
