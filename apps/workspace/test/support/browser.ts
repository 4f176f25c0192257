import { launchChromium, screenshotFolder } from '@handoff/web-ui/testing';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Browser {
  /** A laptop's screen. */
  desktop: Page;
  /** A phone's screen (390 × 844, touch), its own cookies. */
  phone: Page;
  /** Gives the phone the desktop's cookies: the same workspace session on both. */
  sharePhone(): Promise<void>;
  /** Saves a full-page screenshot of `page` as `<name>-desktop.png` or `<name>-phone.png`. */
  shot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** A headless Chromium with two fresh contexts: a laptop and a phone. */
export async function openBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [
    await browser.newContext({ viewport: { width: 1366, height: 768 } }),
    await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    }),
  ];
  const [desktop, phone] = await Promise.all(contexts.map((context) => context.newPage()));
  if (!desktop || !phone) throw new Error('no pages');
  const shots = screenshotFolder('workspace');
  return {
    desktop,
    phone,
    async sharePhone() {
      const [laptop, handset] = contexts;
      if (!laptop || !handset) return;
      await handset.clearCookies();
      await handset.addCookies(await laptop.cookies());
    },
    async shot(page, name) {
      const kind = page === phone ? 'phone' : 'desktop';
      await page.screenshot({ path: join(shots, `${name}-${kind}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
    },
  };
}

interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * The serious and critical accessibility violations axe-core finds on the page, as lines. axe is
 * injected through the DevTools protocol, which the page's CSP does not govern.
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(() =>
    (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe.run(),
  );
  return violations.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
}

/** Whether the page needs no sideways scrolling at its width. */
export const fitsWidth = (page: Page) =>
  page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) <= window.innerWidth);

/**
 * Watches a page for what must never happen, into `problems`: script errors, console errors and
 * failed calls, but the refusals the test expects (`expected`, by status and address).
 */
export function watchPage(
  target: Page,
  name: string,
  problems: string[],
  expected: (status: number, url: string) => boolean,
  /** Response statuses that are no problem wherever they come from (not console errors). */
  answered: readonly number[] = [],
): void {
  target.on('pageerror', (error) => problems.push(`${name}: page error: ${error.message}`));
  target.on('console', (message) => {
    if (message.type() !== 'error') return;
    const url = message.location().url;
    // The browser logs every refused call as an error.
    const status = /status of (\d{3})/.exec(message.text())?.[1];
    if (!(status && expected(Number(status), url))) {
      problems.push(`${name}: console error: ${message.text()} (${url})`);
    }
  });
  target.on('response', (response) => {
    const status = response.status();
    if (status >= 400 && !answered.includes(status) && !expected(status, response.url())) {
      problems.push(`${name}: ${status} ${response.request().method()} ${response.url()}`);
    }
  });
}
