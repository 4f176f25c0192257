import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/** Debian's `chromium`, installed by scripts/setup.sh. */
const CHROMIUM = '/usr/bin/chromium';
const RESULTS = fileURLToPath(new URL('../../../../.test-results/', import.meta.url));

/** A headless Chromium, whose contexts each start on a fresh profile. */
export async function launchChromium(): Promise<Browser> {
  // A missing browser fails the suite (never skips it): `npm run setup` installs it.
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run \`npm run setup\` (apt-get install chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The folder an app's screenshots go to, .test-results/<app>/, made if missing. */
export function screenshotFolder(app: string): string {
  const folder = join(RESULTS, app);
  mkdirSync(folder, { recursive: true });
  return folder;
}
