import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer only; the Node side is bundled by scripts/build.mjs.
export default defineConfig({
  root: 'renderer',
  base: './',
  // The page needs only its icon, which index.html names: nothing else of assets/ (the README's screenshots, the recordings' font) goes into it.
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
});
