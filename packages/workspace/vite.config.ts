import { defineConfig } from 'vite';

// The workspace is served by the gateway at /workspace (services/gateway/src/http/web-apps.ts),
// which answers index.html for every path under it that is not an asset, and calls /v1/provider/*
// and /v1/workspace/* on the same origin with the session cookie. `npm run dev -w
// @handoff/workspace` proxies /v1 to a gateway on localhost:8080 (`npm start`).
export default defineConfig({
  base: '/workspace/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline script or data: URL may end up in the page: the CSP allows 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rolldownOptions: {
      // The SDK's index also exports its webhook verifier (for servers); the workspace never
      // calls it, and its library has no side effects, so none of it belongs in the bundle.
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/standardwebhooks/') },
    },
  },
  server: { proxy: { '/v1': 'http://localhost:8080' } },
});
