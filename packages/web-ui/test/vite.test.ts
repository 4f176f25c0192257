import { describe, expect, it } from '@jest/globals';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { webAppConfig } from '../src/vite.ts';

/** The tags the page shell adds to an app's index.html. */
function shellTags(plugins: unknown): HtmlTagDescriptor[] {
  const [shell] = plugins as Plugin[];
  const hook = shell?.transformIndexHtml as { handler: () => HtmlTagDescriptor[] } | undefined;
  if (!hook) throw new Error('no page shell');
  return hook.handler();
}

describe('webAppConfig', () => {
  it('builds an app for its path under the gateway with nothing inline, as its CSP asks', () => {
    const config = webAppConfig({ base: '/console/', title: 'Console' });
    expect(config.base).toBe('/console/');
    expect(config.build).toMatchObject({
      outDir: 'dist',
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
    });
    expect(config.server?.proxy).toEqual({ '/v1': 'http://localhost:8080' });
  });

  it('gives every page no referrer, its title, the root element and the entry module', () => {
    const tags = shellTags(webAppConfig({ base: '/workspace/', title: 'Workspace' }).plugins);
    expect(tags).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ attrs: { name: 'referrer', content: 'no-referrer' } }),
        expect.objectContaining({ tag: 'title', children: 'Workspace' }),
        expect.objectContaining({ tag: 'div', attrs: { id: 'app' } }),
        expect.objectContaining({
          tag: 'script',
          attrs: { type: 'module', src: './src/main.tsx' },
        }),
      ]),
    );
  });

  it("passes an app's own bundling options on", () => {
    const treeshake = { moduleSideEffects: false };
    const config = webAppConfig({
      base: '/workspace/',
      title: 'W',
      rolldownOptions: { treeshake },
    });
    expect(config.build?.rolldownOptions).toEqual({ treeshake });
  });
});
