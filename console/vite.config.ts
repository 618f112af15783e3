import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * Builds the web console into console/dist, which is committed and served by the
 * API process at `/` (server/routes/console.ts). `npm run build:console`;
 * `npm run check:drift` fails when the committed build is stale.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // One script and one stylesheet: the console is small and loads once.
    modulePreload: { polyfill: false },
  },
});
