import { launchChromium, screenshotFolder } from '@handoff/web-ui/testing';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export interface Browser {
  page: Page;
  /** Saves a full-page screenshot under .test-results/console/. */
  shot(name: string): Promise<Buffer>;
  close(): Promise<void>;
}

/** A headless Chromium on a fresh profile, one page at a laptop's screen size. */
export async function openBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  const shots = screenshotFolder('console');
  return {
    page,
    shot: (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true }),
    close: () => browser.close(),
  };
}
