import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';

/** Debian's `chromium`, installed by scripts/setup.sh. */
const CHROMIUM = '/usr/bin/chromium';
const SHOTS = fileURLToPath(new URL('../../../../.test-results/console/', import.meta.url));

export interface Browser {
  page: Page;
  /** Saves a full-page screenshot under .test-results/console/. */
  shot(name: string): Promise<Buffer>;
  close(): Promise<void>;
}

/** A headless Chromium on a fresh profile, one page at a laptop's screen size. */
export async function openBrowser(): Promise<Browser> {
  // A missing browser fails the suite (never skips it): `npm run setup` installs it.
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run \`npm run setup\` (apt-get install chromium)`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'handoff-chromium-'));
  // A fresh profile directory per run. Playwright takes it as launchPersistentContext's first
  // argument (it refuses --user-data-dir among the args) and passes it to Chromium as that flag.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    // A laptop screen.
    viewport: { width: 1366, height: 768 },
  });
  const page = await context.newPage();
  mkdirSync(SHOTS, { recursive: true });
  return {
    page,
    shot: (name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true }),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
