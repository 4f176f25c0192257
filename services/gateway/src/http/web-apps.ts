import express, { type Request, type Response, type Router } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendProblem } from './problem.ts';

/** Where `npm run build -w @handoff/console` writes the staff console, from this file. */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(
  new URL('../../../../packages/console/dist/', import.meta.url),
);

/**
 * The staff console's policy, in place of the API's `default-src 'none'`: its own scripts,
 * styles and images only (no inline script, no eval), calls to this origin only, never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The staff console (packages/console) at `/console`: its built files, read from `dir` at each
 * request so that a build after start is picked up. Without a build the console answers 503 with
 * a problem that says how to build it; the API itself works either way. Fingerprinted assets may
 * be cached for a year; `index.html` must be fetched again each time (`no-cache`), so a new build
 * is seen at once. The token lives in the page's memory only, so no cookie is ever involved.
 */
export function consoleRouter(dir: string = DEFAULT_CONSOLE_DIR): Router {
  const router = express.Router({ strict: false });
  const index = join(dir, 'index.html');
  const assets = express.static(join(dir, 'assets'), {
    index: false,
    redirect: false,
    fallthrough: true,
    dotfiles: 'ignore',
    etag: false,
    setHeaders: (res) => {
      res.set('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });

  router.use((req: Request, res: Response, next) => {
    res.set('Content-Security-Policy', CONSOLE_CSP);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.set('Allow', 'GET, HEAD');
      sendProblem(res, 'method_not_allowed', 'Use GET, HEAD on the staff console.');
      return;
    }
    if (!existsSync(index)) {
      sendProblem(
        res,
        'console_not_built',
        'The staff console is not built on this gateway; run `npm run build -w @handoff/console`.',
      );
      return;
    }
    next();
  });
  router.use('/assets', assets);
  router.get('/', (_req: Request, res: Response) => {
    res.set('Cache-Control', 'no-cache');
    res.sendFile(index, { etag: false, lastModified: false }, (error) => {
      if (error && !res.headersSent) {
        sendProblem(res, 'console_not_built', 'The staff console could not be read.');
      }
    });
  });
  router.use((req: Request, res: Response) => {
    sendProblem(res, 'not_found', `No route matches ${req.method} ${req.baseUrl}${req.path}.`);
  });
  return router;
}
