import type { ErrorCodeOf } from '@handoff/contracts';
import express, { type Request, type Response, type Router } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendProblem } from './problem.ts';

/**
 * The web apps' policy, in place of the API's `default-src 'none'`: their own scripts, styles and
 * images only (no inline script, no eval), calls to this origin only, never framed.
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
/** The workspace holds to the same policy as the console. */
export const WORKSPACE_CSP = CONSOLE_CSP;

/**
 * The web apps the gateway serves, by their package (packages/<name>, built into its dist/ by
 * `npm run build -w @handoff/<name>`, and answered with `<name>_not_built` until then).
 */
const WEB_APPS = {
  /** The staff console. The token lives in the page's memory only: no cookie is involved. */
  console: { name: 'staff console', csp: CONSOLE_CSP, routesByPath: false },
  /**
   * The providers' workspace: every page under it (a mail's link to a request, the sign-in and
   * unsubscribe pages) is the app, which routes by path.
   */
  workspace: { name: 'providers’ workspace', csp: WORKSPACE_CSP, routesByPath: true },
} as const;

type WebAppName = keyof typeof WEB_APPS;

interface WebApp {
  /** Its build: `index.html` and `assets/`. */
  dir: string;
  csp: string;
  /** In words, for the problems it answers (`the staff console`). */
  name: string;
  notBuilt: ErrorCodeOf<503>;
  /** The command that builds it. */
  build: string;
  /**
   * `true`: every path that is not an asset answers the page (the app routes by path, and mails
   * link into it); otherwise only its root does.
   */
  routesByPath: boolean;
}

/**
 * A single-page app's built files, read from its folder at each request so that a build after
 * start is picked up. Without a build it answers 503 with a problem that says how to build it;
 * the API works either way. Fingerprinted assets may be cached for a year; the page must be
 * fetched again each time (`no-cache`), so a new build is seen at once.
 */
function appRouter(app: WebApp): Router {
  const router = express.Router({ strict: false });
  const index = join(app.dir, 'index.html');
  const assets = express.static(join(app.dir, 'assets'), {
    index: false,
    redirect: false,
    fallthrough: true,
    dotfiles: 'ignore',
    etag: false,
    setHeaders: (res) => {
      res.set('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
  const page = (_req: Request, res: Response) => {
    res.set('Cache-Control', 'no-cache');
    res.sendFile(index, { etag: false, lastModified: false }, (error) => {
      if (error && !res.headersSent) {
        sendProblem(res, app.notBuilt, `The ${app.name} could not be read.`);
      }
    });
  };

  router.use((req: Request, res: Response, next) => {
    res.set('Content-Security-Policy', app.csp);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.set('Allow', 'GET, HEAD');
      sendProblem(res, 'method_not_allowed', `Use GET, HEAD on the ${app.name}.`);
      return;
    }
    if (!existsSync(index)) {
      sendProblem(
        res,
        app.notBuilt,
        `The ${app.name} is not built on this gateway; run \`${app.build}\`.`,
      );
      return;
    }
    next();
  });
  router.use('/assets', assets);
  router.get('/', page);
  router.use((req: Request, res: Response) => {
    if (app.routesByPath && !req.path.startsWith('/assets/')) {
      page(req, res);
      return;
    }
    sendProblem(res, 'not_found', `No route matches ${req.method} ${req.baseUrl}${req.path}.`);
  });
  return router;
}

/** The web app of package `name`, from its build in `dir` (default: the package's dist/). */
export function webAppRouter(name: WebAppName, dir?: string): Router {
  return appRouter({
    ...WEB_APPS[name],
    dir: dir ?? fileURLToPath(new URL(`../../../../apps/${name}/dist/`, import.meta.url)),
    notBuilt: `${name}_not_built`,
    build: `npm run build -w @handoff/${name}`,
  });
}
