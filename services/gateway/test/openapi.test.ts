import { describe, expect, it } from '@jest/globals';
import { ALL_STATE_MACHINES, type StateMachine } from '@handoff/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { readEnv } from '../src/env.ts';
import { defineRoute, type RouteDefinition } from '../src/http/route.ts';
import { TAG_MACHINES } from '../src/openapi/descriptions.ts';
import {
  buildOpenApi,
  OPENAPI_PATH,
  withOpenApi,
  type Header,
  type OpenApiDocument,
  type Operation,
  type Parameter,
  type Reference,
  type ResponseObject,
} from '../src/openapi/document.ts';
import { gatewayRoutes } from '../src/routes/index.ts';

const COMMITTED = new URL('../openapi.json', import.meta.url);

// The document needs the route table only; no route is called here.
const notServed = () => Promise.reject(new Error('not served in this test'));
const routes = gatewayRoutes(readEnv({ NATS_URL: 'nats://127.0.0.1:4222' }), notServed);
const doc = buildOpenApi(routes);

type Json = Record<string, unknown>;

/** Follows a local `$ref` (and a chain of them) inside the document. */
function resolve<T>(node: T | Reference): T {
  let current: unknown = node;
  for (let hops = 0; hops < 10; hops++) {
    if (!current || typeof current !== 'object' || !('$ref' in current)) return current as T;
    const pointer = String((current as Reference).$ref);
    if (!pointer.startsWith('#/')) throw new Error(`not a local reference: ${pointer}`);
    current = pointer
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((at, part) => (at as Json | undefined)?.[part], doc);
    if (current === undefined) throw new Error(`dangling reference ${pointer}`);
  }
  throw new Error('reference chain too long');
}

function operation(route: { method: string; path: string }): Operation {
  const found = (doc.paths[route.path] as Record<string, Operation> | undefined)?.[route.method];
  if (!found) throw new Error(`${route.method.toUpperCase()} ${route.path} is not documented`);
  return found;
}

const responseOf = (op: Operation, status: number | string): ResponseObject => {
  const response = op.responses[status];
  if (!response) throw new Error(`${op.operationId} does not document ${status}`);
  return resolve(response);
};

/** The `code` values a documented problem response allows. */
function problemCodes(response: ResponseObject): string[] {
  const schema = response.content?.['application/problem+json']?.schema as
    { allOf?: Json[] } | undefined;
  expect(schema?.allOf?.[0]).toEqual({ $ref: '#/components/schemas/Problem' });
  const code = (schema?.allOf?.[1]?.properties as Record<string, { enum?: string[] }> | undefined)
    ?.code;
  return [...(code?.enum ?? [])].sort();
}

const headerNames = (response: ResponseObject) => Object.keys(response.headers ?? {});
const isRequired = (header: Header | Reference) => resolve<Header>(header).required === true;

const isTokenRoute = (route: RouteDefinition) => route.requestToken !== undefined;

/**
 * The errors a route can answer, derived here from the conventions (§1, errors table and order of
 * checks) independently of the generator.
 */
function expectedErrors(route: RouteDefinition): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  const token = isTokenRoute(route);
  const post = route.method === 'post';
  const { access } = route;
  if (route.rawBody) {
    // A raw body is never parsed here: its 400s are the handler's own (e.g. a bad signature).
    out[400] = [...route.rawBody.badRequest];
    out[413] = ['payload_too_large'];
    out[415] = ['unsupported_media_type'];
  } else if (route.upload) {
    // A file's bytes: never parsed, refused by their size and type.
    out[413] = ['file_too_large'];
    out[415] = ['unsupported_media_type', 'file_type_not_allowed', 'file_type_mismatch'];
  } else if (route.body) {
    out[400] = ['invalid_json'];
    out[413] = ['payload_too_large'];
    out[415] = ['unsupported_media_type'];
  }
  const unauthorized: string[] = [
    ...{
      public: [],
      agent: ['api_key_missing', 'api_key_invalid', 'api_key_expired'],
      provider: [
        'api_key_missing',
        'api_key_invalid',
        'api_key_expired',
        'workspace_session_invalid',
      ],
      workspace: ['workspace_session_invalid'],
      staff: ['staff_token_missing', 'staff_token_invalid', 'staff_token_expired'],
      applicant: ['application_secret_missing'],
    }[access.kind],
    ...(route.unauthorized ?? []),
  ];
  if (unauthorized.length > 0 || token) {
    out[401] = [...unauthorized, ...(token ? ['request_token_missing'] : [])];
  }
  const forbidden = [
    ...(access.kind === 'agent' && access.scopes.length > 0 ? ['insufficient_scope'] : []),
    ...(access.kind === 'staff' ? ['staff_role_required'] : []),
    ...(token ? ['request_token_invalid'] : []),
    // A change made with a workspace session carries its CSRF token.
    ...((access.kind === 'provider' || access.kind === 'workspace') && route.method !== 'get'
      ? ['csrf_token_invalid']
      : []),
    ...(route.forbidden ?? []),
  ];
  if (forbidden.length > 0) out[403] = forbidden;
  if (route.notFound || /\{\w+\}/.test(route.path)) {
    out[404] = [...(route.notFound ?? ['not_found'])];
  }
  out[405] = ['method_not_allowed'];
  if (route.download) out[416] = ['range_not_satisfiable'];
  if (route.method !== 'get') {
    out[409] = [
      'invalid_state_transition',
      'concurrent_change',
      ...(post ? ['idempotency_key_in_use'] : []),
      ...(route.conflicts ?? []),
    ];
  }
  if (route.body || route.query || route.params || post) {
    out[422] = ['validation_failed', ...(post ? ['idempotency_key_reused'] : [])];
  }
  out[429] = ['rate_limited'];
  if (route.path.startsWith('/v1/')) {
    out[500] = ['internal_error'];
    out[503] = ['service_unavailable'];
  }
  for (const codes of Object.values(out)) codes.sort();
  return out;
}

/** The routes the server mounts once `/v1/openapi.json` is wired in, as `withOpenApi` does. */
const served = withOpenApi(routes);

describe('the committed OpenAPI document', () => {
  // The documents compare as text, so that the order of their members counts too.
  it('is what the current routes and schemas generate (else run `npm run openapi` and commit the result)', () => {
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8')) as unknown;
    expect(JSON.stringify(committed, null, 2)).toBe(JSON.stringify(doc, null, 2));
  });

  it('does not depend on the deployment settings', () => {
    const other = gatewayRoutes(
      readEnv({
        NATS_URL: 'nats://elsewhere:4222',
        RATE_LIMIT_PER_MINUTE: '7',
        PUBLIC_RATE_LIMIT_PER_MINUTE: '3',
      }),
      notServed,
    );
    expect(JSON.stringify(buildOpenApi(other))).toBe(JSON.stringify(doc));
  });
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Json);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Handoff API', version: '1.0.2' });
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('holds only valid JSON Schema 2020-12 whose references all resolve', () => {
    const base = 'https://handoff.invalid/openapi.json';
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(doc, base);
    const pointers: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object' || Array.isArray(node)) return;
      for (const [key, value] of Object.entries(node)) {
        const next = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (key === 'schema' || path === '/components/schemas') pointers.push(next);
        else walk(value, next);
      }
    };
    walk(doc, '');
    expect(pointers.length).toBeGreaterThan(50);
    for (const pointer of pointers) {
      expect(() => ajv.compile({ $ref: `${base}#${encodeURI(pointer)}` })).not.toThrow();
    }
  });

  it('describes the security schemes of the conventions', () => {
    expect(doc.components.securitySchemes).toEqual({
      agentKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      providerKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      staffJwt: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      workspaceSession: expect.objectContaining({
        type: 'apiKey',
        in: 'cookie',
        name: 'handoff_session',
      }),
      applicationSecret: expect.objectContaining({
        type: 'apiKey',
        in: 'header',
        name: 'X-Application-Secret',
      }),
    });
  });

  it('has a Problem schema with the errors array that allows extension members', () => {
    const problem = doc.components.schemas.Problem as Json & {
      properties: Record<string, Json>;
    };
    expect(problem.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail', 'code', 'request_id']),
    );
    expect(problem.properties.errors).toMatchObject({
      type: 'array',
      items: { required: ['pointer', 'code', 'detail'] },
    });
    expect(problem.additionalProperties).toBeUndefined();
  });

  it('documents every route the gateway serves, once, and nothing else', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    const expected = [
      ...served.map((route) => `${route.method} ${route.path}`),
      'get /healthz',
      'get /readyz',
    ];
    expect(documented.sort()).toEqual(expected.sort());
    const ids = documented.map((key) => {
      const [method = '', path = ''] = key.split(' ');
      return operation({ method, path }).operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    for (const route of served) expect(operation(route).operationId).toBe(route.operationId);
  });

  it('documents the document itself and the probes', () => {
    const self = operation({ method: 'get', path: OPENAPI_PATH });
    expect(self.security).toEqual([]);
    expect(responseOf(self, 200).content?.['application/json']).toBeDefined();
    const health = operation({ method: 'get', path: '/healthz' });
    expect(responseOf(health, 200).content?.['application/json']?.schema).toMatchObject({
      properties: { status: { const: 'ok' } },
    });
    const ready = operation({ method: 'get', path: '/readyz' });
    expect(Object.keys(ready.responses).sort()).toEqual(['200', '405', '503']);
    expect(responseOf(ready, 503).content?.['application/json']).toBeDefined();
  });
});

for (const route of served) {
  describe(`${route.method.toUpperCase()} ${route.path}`, () => {
    const op = operation(route);
    const errors = expectedErrors(route);

    it('has the security of its access', () => {
      const { access } = route;
      const expected = {
        public: [],
        applicant: [{ applicationSecret: [] }],
        staff: [{ staffJwt: [] }],
        provider: [{ providerKey: [] }, { workspaceSession: [] }],
        workspace: [{ workspaceSession: [] }],
        agent: [{ agentKey: access.kind === 'agent' ? [...access.scopes] : [] }],
      }[access.kind];
      expect(op.security).toEqual(expected);
    });

    it('documents its success with the Request-Id and rate-limit headers', () => {
      const success = responseOf(op, route.status);
      expect(headerNames(success)).toEqual(
        expect.arrayContaining(['Request-Id', 'RateLimit', 'RateLimit-Policy']),
      );
      for (const name of Object.keys(route.headers ?? {})) {
        expect(success.headers?.[name]).toBeDefined();
      }
      if (route.download) {
        // A file's bytes, whatever their type.
        expect(success.content?.['application/octet-stream']?.schema).toEqual(expect.any(Object));
      } else if (route.status !== 204) {
        expect(success.content?.['application/json']?.schema).toEqual(expect.any(Object));
      }
    });

    it('documents exactly the errors the conventions give it, as problem+json', () => {
      const documented = Object.keys(op.responses)
        .map(Number)
        .filter((status) => status >= 400);
      expect(documented.sort()).toEqual(
        Object.keys(errors)
          .map(Number)
          .sort((a, b) => a - b),
      );
      for (const [status, codes] of Object.entries(errors)) {
        const response = responseOf(op, status);
        expect([status, problemCodes(response)]).toEqual([status, codes]);
        expect(headerNames(response)).toContain('Request-Id');
      }
    });

    it('documents the headers of its errors', () => {
      const required = (status: number, name: string) => {
        const header = responseOf(op, status).headers?.[name];
        expect([status, name, header && isRequired(header)]).toEqual([status, name, true]);
      };
      required(405, 'Allow');
      required(429, 'Retry-After');
      required(429, 'RateLimit');
      required(429, 'RateLimit-Policy');
      if (errors[503]) required(503, 'Retry-After');
      if (['agent', 'provider', 'staff'].includes(route.access.kind)) {
        expect(headerNames(responseOf(op, 401))).toContain('WWW-Authenticate');
      }
    });

    it('documents its parameters and body', () => {
      const parameters = (op.parameters ?? []).map((p) => resolve<Parameter>(p));
      const named = (where: string, name: string) =>
        parameters.find((p) => p.in === where && p.name.toLowerCase() === name.toLowerCase());
      for (const [, name = ''] of route.path.matchAll(/\{(\w+)\}/g)) {
        expect(named('path', name)).toMatchObject({ required: true });
      }
      if (route.query) {
        const keys = Object.keys(route.query instanceof z.ZodObject ? route.query.shape : {});
        for (const key of keys) expect(named('query', key)).toBeDefined();
        expect(parameters.some((p) => p.in === 'query')).toBe(true);
      }
      if (route.method === 'post') {
        expect(named('header', 'Idempotency-Key')).toMatchObject({
          required: false,
          schema: { maxLength: 255 },
        });
      } else {
        expect(named('header', 'Idempotency-Key')).toBeUndefined();
      }
      expect(named('header', 'X-Service-Request-Token') !== undefined).toBe(isTokenRoute(route));
      if (route.rawBody) {
        expect(op.requestBody).toMatchObject({
          required: true,
          content: { 'application/json': { schema: expect.any(Object) } },
        });
      } else if (route.body) {
        expect(op.requestBody).toMatchObject({
          required: !route.bodyOptional,
          content: { 'application/json': { schema: expect.any(Object) } },
        });
      } else if (route.upload) {
        expect(op.requestBody).toMatchObject({
          required: true,
          content: { 'application/octet-stream': { schema: expect.any(Object) } },
        });
      } else {
        expect(op.requestBody).toBeUndefined();
      }
    });

    it('says whether it is deprecated', () => {
      expect(op.deprecated === true).toBe(route.deprecated === true);
    });
  });
}

describe('deprecated routes', () => {
  it('are marked deprecated, with the Deprecation, Sunset and Link they send', () => {
    // `/v1/human-request` must be one of them once it exists (conventions §1).
    const legacy = served.filter(
      (route) => route.deprecated === true || route.path === '/v1/human-request',
    );
    for (const route of legacy) {
      const op = operation(route);
      expect([route.path, op.deprecated]).toEqual([route.path, true]);
      expect(headerNames(responseOf(op, route.status))).toEqual(
        expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
      );
    }
  });

  it('are marked in the document (checked with a route of its own here)', () => {
    const base = served.find((route) => route.method === 'post' && route.body);
    if (!base) throw new Error('no POST route with a body');
    const old = {
      ...base,
      path: '/v1/legacy-thing',
      operationId: 'legacyThing',
      deprecated: true,
      headers: {
        Deprecation: '@1767225600',
        Sunset: 'Thu, 31 Dec 2026 00:00:00 GMT',
        Link: '</v1/thing>; rel="successor-version"',
      },
    };
    const op = buildOpenApi([old]).paths['/v1/legacy-thing']?.post;
    expect(op?.deprecated).toBe(true);
    const success = op?.responses[old.status] as ResponseObject | undefined;
    expect(success?.headers?.Link).toMatchObject({ example: old.headers.Link });
  });
});

describe('routes protected by a request token', () => {
  const tokenRoute = {
    ...defineRoute({
      method: 'post',
      path: '/v1/things/{id}/messages',
      operationId: 'createThingMessage',
      summary: 'A token-protected call',
      tags: ['things'],
      access: { kind: 'agent', scopes: ['messages:create'] },
      params: z.strictObject({ id: z.string() }),
      body: z.strictObject({ text: z.string().max(10) }),
      status: 201,
      response: z.object({ ok: z.boolean() }),
      notFound: ['request_not_found'],
      handle: async () => ({ ok: true }),
    }),
    requestToken: 'owner' as const,
  };
  const built = buildOpenApi([tokenRoute]);
  const op = built.paths['/v1/things/{id}/messages']?.post;

  it('take X-Service-Request-Token and answer its 401, 403 and 404', () => {
    if (!op) throw new Error('not documented');
    const parameter = op.parameters
      ?.map((p) =>
        '$ref' in p ? (built.components.parameters[p.$ref.split('/').pop() ?? ''] as Parameter) : p,
      )
      .find((p) => p.name === 'X-Service-Request-Token');
    expect(parameter).toMatchObject({ in: 'header', required: true });
    const codes = (status: number) =>
      (
        (op.responses[status] as ResponseObject).content?.['application/problem+json']?.schema as {
          allOf: [unknown, { properties: { code: { enum: string[] } } }];
        }
      ).allOf[1].properties.code.enum;
    expect(codes(401)).toContain('request_token_missing');
    expect(codes(403)).toEqual(['insufficient_scope', 'request_token_invalid']);
    expect(codes(404)).toEqual(['request_not_found']);
    expect(expectedErrors(tokenRoute)[401]).toContain('request_token_missing');
  });

  it('can be recognised by an option instead of the route field', () => {
    const plain: Partial<typeof tokenRoute> = { ...tokenRoute };
    delete plain.requestToken;
    const viaOption = buildOpenApi([plain as RouteDefinition], {
      requestToken: (route) => route.path.includes('things'),
    });
    expect(viaOption.paths['/v1/things/{id}/messages']?.post).toEqual(op);
  });
});

describe('links', () => {
  const operations = new Map(
    Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((op): [string, Operation] => [op.operationId, op]),
    ),
  );
  /** A property a JSON pointer names in a schema, following references and `allOf`. */
  function pointsInto(schema: Json, pointer: string): boolean {
    let at: Json | undefined = resolve<Json>(schema);
    for (const part of pointer.split('/').slice(1)) {
      const properties: Record<string, Json> = {
        ...(at?.properties as Record<string, Json> | undefined),
        ...Object.assign(
          {},
          ...((at?.allOf as Json[] | undefined) ?? []).map(
            (member) => resolve<Json>(member).properties,
          ),
        ),
      };
      const next = properties[part];
      if (!next) return false;
      at = resolve<Json>(next);
    }
    return true;
  }
  const linked = [...operations.values()].flatMap((op) =>
    Object.entries(op.responses).flatMap(([status, response]) =>
      Object.entries(resolve<ResponseObject>(response).links ?? {}).map((entry) => ({
        op,
        status,
        link: entry[1],
      })),
    ),
  );

  it('lead from the operations that create resources to those that use them', () => {
    const pairs = linked.map(({ op, link }) => `${op.operationId} -> ${link.operationId}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'createHandoffRequest -> getRequest',
        'createHandoffRequest -> sendMessage',
        'createHandoffRequest -> proposePaymentRequest',
        'createHandoffRequest -> listRequestMessages',
        'createHandoffRequest -> listRequestPaymentRequests',
        'createHandoffRequest -> listRequestPayments',
        'proposePaymentRequest -> getRequestPaymentRequest',
        'proposePaymentRequest -> listRequestPaymentRequests',
        'proposePaymentRequest -> listRequestPayments',
        'openDispute -> commentOnDispute',
        'acceptProposal -> getJob',
        'createProvider -> issueProviderKey',
        'issueProviderKey -> revokeProviderKey',
        'createWebhookEndpoint -> rotateWebhookEndpointSecret',
        'createProposal -> withdrawProposal',
        'createMilestone -> submitMilestone',
      ]),
    );
  });

  it('pass the request token along with the request id', () => {
    const fromCreate = linked.filter(({ op }) => op.operationId === 'createHandoffRequest');
    expect(fromCreate.length).toBeGreaterThan(5);
    for (const { link } of fromCreate) {
      expect(link.parameters).toEqual({
        'path.id': '$response.body#/id',
        'header.X-Service-Request-Token': '$response.body#/request_token',
      });
    }
    // A proposed payment request is read back on the same request, with the same token.
    const fromProposal = linked.filter(({ op }) => op.operationId === 'proposePaymentRequest');
    expect(
      Object.fromEntries(fromProposal.map(({ link }) => [link.operationId, link.parameters])),
    ).toEqual({
      getRequestPaymentRequest: {
        'path.id': '$request.path.id',
        'header.X-Service-Request-Token': '$request.header.X-Service-Request-Token',
        'path.payment_request_id': '$response.body#/id',
      },
      listRequestPaymentRequests: {
        'path.id': '$request.path.id',
        'header.X-Service-Request-Token': '$request.header.X-Service-Request-Token',
      },
      listRequestPayments: {
        'path.id': '$request.path.id',
        'header.X-Service-Request-Token': '$request.header.X-Service-Request-Token',
      },
    });
  });

  it('set only parameters their target takes, from fields and parameters their source has', () => {
    expect(linked.length).toBeGreaterThan(30);
    for (const { op, status, link } of linked) {
      expect(status).toMatch(/^2/);
      const target = operations.get(link.operationId);
      if (!target) throw new Error(`${op.operationId} links to unknown ${link.operationId}`);
      const takes = (target.parameters ?? []).map((p) => {
        const parameter = resolve<Parameter>(p);
        return `${parameter.in}.${parameter.name}`;
      });
      const gives = (op.parameters ?? []).map((p) => {
        const parameter = resolve<Parameter>(p);
        return `$request.${parameter.in}.${parameter.name}`;
      });
      const body = responseOf(op, status).content?.['application/json']?.schema as Json;
      for (const [name, expression] of Object.entries(link.parameters)) {
        expect(takes).toContain(name);
        if (expression.startsWith('$response.body#')) {
          expect([op.operationId, expression, pointsInto(body, expression.slice(15))]).toEqual([
            op.operationId,
            expression,
            true,
          ]);
        } else {
          expect(gives).toContain(expression);
        }
      }
    }
  });
});

describe('member names', () => {
  it('carry no rule the gateway does not apply: an unknown member is dropped whatever its name', () => {
    // The gateway leaves member names to the schema; a `propertyNames` rule on an object that
    // drops unknown members (`routing` of PATCH /v1/staff/requests/{id}) promised a refusal
    // the API never makes, which Schemathesis found as a schema-violating request accepted.
    const bodies = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((op) => op.requestBody ?? {}),
    );
    expect(JSON.stringify([bodies, doc.components.schemas])).not.toContain('propertyNames');
  });

  it('are closed in every parsed request body: unknown members are refused, never dropped', () => {
    const open: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${at}/${i}`));
      if (!node || typeof node !== 'object') return;
      const schema = resolve<Json>(node as Json);
      if (schema.type === 'object' && schema.properties && schema.additionalProperties !== false) {
        open.push(at);
      }
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    for (const route of routes) {
      if (!route.body) continue;
      walk(operation(route).requestBody, `${route.method} ${route.path}`);
    }
    expect(open).toEqual([]);
  });
});

describe('serving the document', () => {
  it('adds GET /v1/openapi.json, public, answering the document of the other routes', async () => {
    const route = served.at(-1);
    expect(route).toMatchObject({ method: 'get', path: OPENAPI_PATH, access: { kind: 'public' } });
    expect(route?.headers).toMatchObject({ ETag: expect.stringMatching(/^".+"$/) });
    const answer = (await route?.handle({} as Parameters<RouteDefinition['handle']>[0])) as
      OpenApiDocument | undefined;
    expect(JSON.stringify(answer)).toBe(JSON.stringify(doc));
    expect(route?.response.safeParse(answer).success).toBe(true);
  });
});

describe('the state machines of the engagement', () => {
  const tags = Object.entries(TAG_MACHINES) as [string, readonly StateMachine[]][];

  it('documents every machine the services enforce, each on one tag', () => {
    const documented = tags.flatMap(([, machines]) => machines.map((m) => m.resource));
    expect(documented.sort()).toEqual(ALL_STATE_MACHINES.map((m) => m.resource).sort());
  });

  it.each(tags)('are documented on the %s tag: table, deadlines and diagram', (tag, machines) => {
    const description = doc.tags.find((entry) => entry.name === tag)?.description ?? '';
    for (const machine of machines) {
      const moves = machine.moves as Record<string, Record<string, string>>;
      const events = machine.events as Record<string, string | null>;
      for (const state of machine.states) {
        for (const [action, next] of Object.entries(moves[state] ?? {})) {
          const event = events[action];
          expect(description).toContain(
            `| \`${state}\` | \`${action}\` | \`${next}\` | ${event ? `\`${event}\`` : '—'} |`,
          );
          expect(description).toContain(`    ${state} --> ${next}: ${action}`);
        }
        const waiting = (machine.waiting as Record<string, { days: number } | undefined>)[state];
        if (waiting) {
          expect(description).toContain(`| \`${state}\` |`);
          expect(description).toContain(`${waiting.days} days after entering the state`);
        }
      }
      expect(description).toContain('```mermaid\nstateDiagram-v2');
      expect(description).toContain(`[*] --> ${machine.initial}`);
    }
  });
});
