import { webAppConfig } from '@handoff/web-ui/vite';

// The workspace is served by the gateway at /workspace (services/gateway/src/http/web-apps.ts),
// which answers index.html for every path under it that is not an asset, and calls /v1/provider/*
// and /v1/workspace/* on the same origin with the session cookie.
// index.html is only the frame: webAppConfig adds the page's head and body.
export default webAppConfig({
  base: '/workspace/',
  title: 'Handoff workspace',
  rolldownOptions: {
    // The SDK's index also exports its webhook verifier (for servers); the workspace never
    // calls it, and its library has no side effects, so none of it belongs in the bundle.
    treeshake: { moduleSideEffects: (id: string) => !id.includes('/standardwebhooks/') },
  },
});
