import { webAppConfig } from '@handoff/web-ui/vite';

// The console is served by the gateway at /console (services/gateway/src/http/web-apps.ts) and
// calls /v1/staff/* on the same origin.
// index.html is only the frame: webAppConfig adds the page's head and body.
export default webAppConfig({ base: '/console/', title: 'Handoff staff console' });
