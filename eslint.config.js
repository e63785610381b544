import js from '@eslint/js';
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { noImportCycle } from './scripts/cycles.js';
import { errorHeardForLife, noUnboundedSpread, placeInPlaceModule, transportInDataLayer } from './scripts/lint-rules.js';
import { formatLiteralRule, layerRules } from './scripts/layers.js';

export default defineConfig(
  { ignores: ['out/**', 'dist/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['scripts/**/*.{js,mjs}', '*.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  ...layerRules(builtinModules),
  formatLiteralRule,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { cellwatch: { rules: { 'no-import-cycle': noImportCycle, 'error-heard-for-life': errorHeardForLife, 'no-unbounded-spread': noUnboundedSpread, 'transport-in-data-layer': transportInDataLayer, 'place-in-place-module': placeInPlaceModule } } },
    rules: { 'cellwatch/no-import-cycle': 'error', 'cellwatch/error-heard-for-life': 'error', 'cellwatch/no-unbounded-spread': 'error' },
  },
  {
    // Where the transport is held: the data layer, the transports themselves, the provider that makes them meet.
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/src/data/**', 'renderer/src/transport/**', 'renderer/src/context.tsx', 'renderer/src/main.tsx', '**/*.test.{ts,tsx}', '**/testing.ts'],
    rules: { 'cellwatch/transport-in-data-layer': 'error' },
  },
  {
    files: ['main/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}', 'app/**/*.ts'],
    ignores: ['main/place/**', 'main/ssh/**', 'shared/address.ts', '**/*.test.{ts,tsx}', '**/testing.ts', '**/*-testing.ts'],
    rules: { 'cellwatch/place-in-place-module': 'error' },
  },
);
