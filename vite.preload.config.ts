// The preload runs sandboxed, where only a few modules can be required: bundle it, shared contract
// included, into one CommonJS file that requires nothing but electron.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist/preload',
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    lib: { entry: 'src-main/electron/preload.ts', formats: ['cjs'], fileName: () => 'preload.cjs' },
    rollupOptions: { external: ['electron'] },
  },
});
