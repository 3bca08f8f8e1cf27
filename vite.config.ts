// The renderer's build: src-renderer → dist/web, relative asset URLs so the same files load from the
// desktop app's custom protocol and from `skilltray serve --web`.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./src-renderer', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // One CSS file and no inline scripts: the page's CSP allows scripts from 'self' only.
    cssCodeSplit: false,
    assetsInlineLimit: 0,
    // Served from disk or loopback, never over a network: one bundle is fine.
    chunkSizeWarningLimit: 1024,
  },
});
