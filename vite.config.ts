import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer only; the Node side is bundled by scripts/build.mjs.
export default defineConfig({
  root: 'renderer',
  base: './',
  publicDir: '../assets',
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
});
