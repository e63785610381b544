import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{app,main,runners,shared,scripts}/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}'],
    exclude: ['e2e/**', 'node_modules/**', 'out/**'],
    testTimeout: 20_000,
  },
});
