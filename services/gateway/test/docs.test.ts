// The pages for people (`/docs`, `/docs/errors/<code>`), the AsyncAPI document, problem `type`
// URLs that resolve to those pages, and the request examples in the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildAsyncApi, ERRORS } from '@handoff/contracts';
import { createLogger } from '@handoff/observability';
import { natsEnv } from '@handoff/testkit';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { bootstrap, type RunningGateway } from '../src/bootstrap.ts';
import { DOCS_CSP } from '../src/http/docs.ts';
import type { OpenApiDocument } from '../src/openapi/document.ts';
import { REQUEST_EXAMPLES } from '../src/openapi/examples.ts';
import { readEnv } from '../src/env.ts';
import { gatewayRoutes } from '../src/routes/index.ts';

const committed = JSON.parse(
  readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'),
) as OpenApiDocument;
let gateway: RunningGateway;
const from = { 'X-Forwarded-For': '2001:db8::d0c5' };
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}${path}`, { headers: { ...from, ...headers } });

beforeAll(async () => {
  gateway = await bootstrap({
    env: {
      ...natsEnv('gateway'),
      PORT: '0',
      STAFF_JWT_SECRET: 'a-staff-secret-of-at-least-32-bytes-for-docs',
      TRUST_PROXY: 'true',
    },
    logger: createLogger({ service: 'gateway-docs-test', version: 'test', level: 'silent' }),
  });
});

afterAll(async () => {
  await gateway?.stop();
});

describe('GET /docs', () => {
  it('is an HTML page that loads the pinned Swagger UI from this gateway, under a CSP that allows it', async () => {
    const res = await get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("script-src 'self'");
    expect(DOCS_CSP).toContain("frame-ancestors 'none'");
    const html = await res.text();
    // Every script and stylesheet comes from this gateway: nothing from a CDN.
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(sources.filter((source) => /^(https?:)?\/\//.test(source))).toEqual([]);
    expect(sources).toEqual(
      expect.arrayContaining([
        '/docs/assets/swagger-ui-bundle.js',
        '/docs/assets/swagger-ui.css',
        '/docs/init.js',
      ]),
    );
    expect(html).not.toMatch(/<script>(?!<\/script>)/); // no inline script (the CSP forbids it)
    for (const source of sources.filter((source) => source.startsWith('/docs/'))) {
      const asset = await get(source);
      expect({ source, status: asset.status }).toEqual({ source, status: 200 });
      await asset.arrayBuffer();
    }
    const swaggerUi = createRequire(import.meta.url).resolve(
      'swagger-ui-dist/swagger-ui-bundle.js',
    );
    const bundle = await (await get('/docs/assets/swagger-ui-bundle.js')).text();
    expect(bundle).toBe(readFileSync(swaggerUi, 'utf8'));
    const init = await (await get('/docs/init.js')).text();
    expect(init).toContain("url: '/v1/openapi.json'");
    expect(init).toContain('validatorUrl: null');
  });

  it('serves only the files the page needs from the package', async () => {
    expect((await get('/docs/assets/index.html')).status).toBe(404);
    expect((await get('/docs/assets/../package.json')).status).toBe(404);
  });
});

describe('problem types', () => {
  it('point at /docs/errors/<code>, a page this gateway serves', async () => {
    const res = await get('/v1/me');
    expect(res.status).toBe(401);
    const problem = (await res.json()) as { type: string; code: string };
    expect(problem.type).toBe('/docs/errors/api_key_missing');
    const page = await get(problem.type);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<h1><code>api_key_missing</code></h1>');
    expect(html).toContain('401 Unauthorized');
    expect(html).toContain('no agent key');
  });

  it('point at the same pages from /mcp, which answers some problems itself', async () => {
    const res = await fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { ...from, 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    const problem = (await res.json()) as Record<string, unknown>;
    expect(problem).toEqual({
      type: '/docs/errors/api_key_missing',
      title: 'Unauthorized',
      status: 401,
      detail: expect.stringContaining('Authorization: Bearer'),
      code: 'api_key_missing',
      request_id: res.headers.get('request-id'),
    });
    expect((await get(String(problem.type))).status).toBe(200);
  });

  it('have a page for every code of the catalogue, listed at /docs/errors', async () => {
    const index = await (await get('/docs/errors')).text();
    for (const code of Object.keys(ERRORS)) {
      expect(index).toContain(`href="/docs/errors/${code}"`);
      const page = await get(`/docs/errors/${code}`);
      expect({ code, status: page.status }).toEqual({ code, status: 200 });
      await page.arrayBuffer();
    }
    const validation = await (await get('/docs/errors/validation_failed')).text();
    expect(validation).toContain('<dd>422 Unprocessable Content</dd>');
  });

  it('answer an unknown code with a 404 problem', async () => {
    const res = await get('/docs/errors/no_such_code');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

describe('GET /v1/asyncapi.json', () => {
  it('is the AsyncAPI document of the events, the same as the committed one', async () => {
    const res = await get('/v1/asyncapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"/);
    const served = (await res.json()) as { asyncapi: string };
    expect(served).toEqual(buildAsyncApi());
    expect(served).toEqual(
      JSON.parse(
        readFileSync(new URL('../../../packages/contracts/asyncapi.json', import.meta.url), 'utf8'),
      ),
    );
    expect(committed.paths['/v1/asyncapi.json']?.get?.operationId).toBe('getAsyncApiDocument');
  });
});

describe('request examples', () => {
  const routes = gatewayRoutes(readEnv({ NATS_URL: 'nats://127.0.0.1:4222' }), () =>
    Promise.reject(new Error('not served')),
  );

  it('are in the document for the main agent operations', () => {
    const media = (path: string, method: 'post' | 'patch') =>
      committed.paths[path]?.[method]?.requestBody?.content['application/json'];
    for (const [path, method] of [
      ['/v1/access-applications', 'post'],
      ['/v1/ai-to-human-request', 'post'],
      ['/v1/request/{id}/message', 'post'],
      ['/v1/request/{id}/payment-request', 'post'],
      ['/v1/request/{id}/disputes', 'post'],
      ['/v1/request/{id}/disputes/{dispute_id}/comments', 'post'],
      ['/v1/request/{id}/milestones/{milestone_id}/request-changes', 'post'],
      ['/v1/webhook-endpoints', 'post'],
    ] as const) {
      expect({ path, example: media(path, method)?.example }).toEqual({
        path,
        example: expect.anything(),
      });
    }
  });

  it('each name a real operation with a body, and each is valid for its body schema', () => {
    for (const [operationId, example] of Object.entries(REQUEST_EXAMPLES)) {
      const route = routes.find((candidate) => candidate.operationId === operationId);
      expect({ operationId, body: Boolean(route?.body) }).toEqual({ operationId, body: true });
      const parsed = route?.body?.safeParse(example);
      expect({ operationId, issues: parsed?.success ? [] : parsed?.error.issues }).toEqual({
        operationId,
        issues: [],
      });
    }
  });
});
