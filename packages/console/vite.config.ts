import { defineConfig } from 'vite';

// The console is served by the gateway at /console (services/gateway/src/http/console.ts) and
// calls /v1/staff/* on the same origin. `npm run dev -w @handoff/console` proxies /v1 to a
// gateway on localhost:8080 (`npm start`).
export default defineConfig({
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline script or data: URL may end up in the page: the CSP allows 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: { proxy: { '/v1': 'http://localhost:8080' } },
});
