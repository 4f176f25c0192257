import { defineConfig, type HtmlTagDescriptor, type Plugin, type UserConfig } from 'vite';

type Rolldown = NonNullable<NonNullable<UserConfig['build']>['rolldownOptions']>;

export interface WebApp {
  /** Where the gateway serves it: `/console/`, `/workspace/`. */
  base: string;
  /** The page's title before the app sets its own. */
  title: string;
  /** Bundling options of the app's own. */
  rolldownOptions?: Rolldown;
}

/**
 * The page both apps are: what its head says (the character set, the viewport, no referrer: sign-in
 * and unsubscribe links carry their token in the fragment, which never leaves the page, and the
 * rest of the address stays ours as well), the icon, and the element the app renders into with
 * the module that does. Added to each app's index.html before Vite builds it, so that Vite
 * bundles the module and the icon as if written there.
 */
function pageShell(title: string): Plugin {
  const tags: HtmlTagDescriptor[] = [
    { tag: 'meta', attrs: { charset: 'utf-8' }, injectTo: 'head-prepend' },
    {
      tag: 'meta',
      attrs: { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      injectTo: 'head',
    },
    { tag: 'meta', attrs: { name: 'referrer', content: 'no-referrer' }, injectTo: 'head' },
    { tag: 'title', children: title, injectTo: 'head' },
    {
      tag: 'link',
      attrs: { rel: 'icon', type: 'image/svg+xml', href: './src/icon.svg' },
      injectTo: 'head',
    },
    { tag: 'div', attrs: { id: 'app' }, injectTo: 'body-prepend' },
    { tag: 'script', attrs: { type: 'module', src: './src/main.tsx' }, injectTo: 'body' },
  ];
  return {
    name: 'handoff-page-shell',
    transformIndexHtml: { order: 'pre', handler: () => tags },
  };
}

/**
 * A web app's Vite settings: Preact's JSX, the page shell, a build in dist/ served by the gateway
 * under `base`, and `npm run dev -w <app>` proxying /v1 to a gateway on localhost:8080 (`npm
 * start`).
 */
export function webAppConfig(app: WebApp) {
  return defineConfig({
    base: app.base,
    plugins: [pageShell(app.title)],
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // No inline script or data: URL may end up in the page: the CSP allows 'self' only.
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
      rolldownOptions: app.rolldownOptions ?? {},
    },
    server: { proxy: { '/v1': 'http://localhost:8080' } },
  });
}
