import { launchChromium, screenshotFolder } from '@handoff/web-ui/testing';
import { join } from 'node:path';
import type { Browser as Chromium, Page } from 'playwright-core';

export interface Browser {
  page: Page;
  /** A second page on a phone's screen (390 × 844, touch), its own profile: made on first use. */
  phone(): Promise<Page>;
  /**
   * Saves a full-page screenshot under .test-results/console/: `<name>.png` of the laptop's page,
   * `<name>-phone.png` of the phone's.
   */
  shot(name: string, on?: Page): Promise<Buffer>;
  close(): Promise<void>;
}

const openPhone = async (browser: Chromium) =>
  (
    await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    })
  ).newPage();

/** A headless Chromium on a fresh profile, one page at a laptop's screen size. */
export async function openBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  const shots = screenshotFolder('console');
  let phone: Promise<Page> | undefined;
  return {
    page,
    phone: () => (phone ??= openPhone(browser)),
    shot: async (name, on = page) => {
      const file = on === page ? `${name}.png` : `${name}-phone.png`;
      return on.screenshot({ path: join(shots, file), fullPage: true });
    },
    close: () => browser.close(),
  };
}

/**
 * Whether the page needs no sideways scrolling on its device's screen. (A phone's browser widens
 * its layout to content that overflows, so the window's own width would always fit.)
 */
export const fitsWidth = (page: Page) =>
  page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) <= window.screen.width);
