import { defineConfig } from 'vite';

// The page is plain TypeScript; the wasm module comes from web/pkg (npm run build:wasm).
// No COOP/COEP headers: the page must stay embeddable in other sites' frames.
export default defineConfig({
  root: 'web',
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173 },
  test: { root: '.', include: ['web/test/**/*.test.ts'] },
});
