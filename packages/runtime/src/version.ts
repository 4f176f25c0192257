import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The `version` of the package.json next to the `src/` folder holding `moduleUrl`. */
export function packageVersion(moduleUrl: string): string {
  const path = fileURLToPath(new URL('../package.json', moduleUrl));
  const { version } = JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown };
  return typeof version === 'string' ? version : '0.0.0';
}
