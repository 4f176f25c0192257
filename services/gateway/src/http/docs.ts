// The pages a person reads in a browser: the API reference at `/docs` (Swagger UI from the pinned
// `swagger-ui-dist` package, served from node_modules, nothing from a CDN), and one page per
// problem `code` at `/docs/errors/<code>`, which is where every problem's `type` points.
import { ERRORS } from '@handoff/contracts';
import express, { type Request, type Response, type Router } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { OpenApiDocument } from '../openapi/document.ts';
import { sendProblem, STATUS_TITLES } from './problem.ts';

export const DOCS_PATH = '/docs';
/** Where the problem `type` URLs point: `/docs/errors/<code>`, on the gateway that answered. */
export const ERRORS_PATH = `${DOCS_PATH}/errors`;

/**
 * The pages' own policy, instead of the API's `default-src 'none'`: scripts and styles from this
 * gateway only (Swagger UI sets inline styles, and its icons are data: images), calls to this
 * gateway only (the document and "try it out"); still no framing, no base or form targets.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The files of swagger-ui-dist the page loads; nothing else of the package is served. */
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'] as const;

const swaggerUiDir = dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

/** The catalogue's codes as the pages list them, by name. */
const CODES = Object.entries(ERRORS)
  .map(([code, { status, description }]) => ({ code, status, description }))
  .sort((a, b) => a.code.localeCompare(b.code));

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** The catalogue's descriptions use `code` spans in Markdown; the pages show them as <code>. */
const inlineCode = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_match, inner: string) => `<code>${inner}</code>`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${DOCS_PATH}/docs.css">
</head>
<body>
${body}
</body>
</html>
`;
}

const NAV = `<nav><a href="${DOCS_PATH}">API reference</a> · <a href="${ERRORS_PATH}">Problem codes</a> · <a href="/v1/openapi.json">OpenAPI 3.1</a> · <a href="/v1/asyncapi.json">AsyncAPI 3.0 (events)</a></nav>`;

const STYLE = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
nav{margin-bottom:1.5rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px}
body.reference{max-width:none;margin:0;padding:0}body.reference nav{padding:.75rem 1rem;margin:0;border-bottom:1px solid #ddd}
`;

/** `SwaggerUIBundle` from swagger-ui-bundle.js, on this gateway's document; no external validator. */
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** `/docs` and what it loads, and `/docs/errors[/<code>]`. */
export function docsRouter(document: OpenApiDocument): Router {
  const byCode = new Map(CODES.map((entry) => [entry.code, entry]));
  const router = express.Router({ strict: false });
  router.use((_req, res, next) => {
    res.set('Content-Security-Policy', DOCS_CSP);
    next();
  });
  const html = (res: Response, body: string) => res.type('text/html; charset=utf-8').send(body);

  router.get('/', (_req, res) =>
    html(
      res,
      page(
        `${document.info.title} ${document.info.version}: reference`,
        `${NAV}\n<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>`,
      )
        .replace('<body>', '<body class="reference">')
        .replace(
          '</title>',
          `</title>\n<link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">\n<link rel="icon" href="${DOCS_PATH}/assets/favicon-32x32.png">`,
        ),
    ),
  );
  router.get('/init.js', (_req, res) => res.type('text/javascript').send(INIT));
  router.get('/docs.css', (_req, res) => res.type('text/css').send(STYLE));
  for (const asset of ASSETS) {
    router.get(`/assets/${asset}`, (_req, res, next) => {
      res.set('Cache-Control', 'public, max-age=86400');
      res.sendFile(asset, { root: swaggerUiDir, cacheControl: false }, (error) => {
        if (error) next(error);
      });
    });
  }

  router.get('/errors', (_req, res) =>
    html(
      res,
      page(
        'Problem codes',
        `${NAV}
<h1>Problem codes</h1>
<p>Every error is <code>application/problem+json</code> (RFC 9457) with a stable <code>code</code> to branch on; its <code>type</code> is the page of that code here, <code>${ERRORS_PATH}/&lt;code&gt;</code>, relative to the gateway that answered.</p>
<table>
<thead><tr><th>Code</th><th>Status</th><th>Meaning</th></tr></thead>
<tbody>
${CODES.map(
  (entry) =>
    `<tr><td><a href="${ERRORS_PATH}/${entry.code}"><code>${entry.code}</code></a></td><td>${entry.status}</td><td>${inlineCode(entry.description)}</td></tr>`,
).join('\n')}
</tbody>
</table>`,
      ),
    ),
  );
  router.get('/errors/:code', (req: Request, res: Response) => {
    const entry = byCode.get(String(req.params.code));
    if (!entry) {
      // A problem like any other 404 (with the API's policy: it is JSON, not a page).
      res.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      sendProblem(res, 'not_found', `No problem code ${JSON.stringify(req.params.code)}.`);
      return;
    }
    html(
      res,
      page(
        `${entry.code}: problem code`,
        `${NAV}
<h1><code>${entry.code}</code></h1>
<p>${inlineCode(entry.description)}.</p>
<dl>
<dt>Status</dt><dd>${entry.status} ${escapeHtml(STATUS_TITLES[entry.status] ?? '')}</dd>
<dt>Problem type</dt><dd><code>${ERRORS_PATH}/${entry.code}</code></dd>
</dl>
<p>The body also carries <code>title</code>, <code>status</code>, <code>detail</code> (what happened, for a person) and <code>request_id</code>; see the <a href="${ERRORS_PATH}">list of codes</a> and, per operation, the <a href="${DOCS_PATH}">API reference</a>.</p>`,
      ),
    );
  });
  return router;
}
