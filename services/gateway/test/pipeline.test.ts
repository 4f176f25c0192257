import { BusError } from '@handoff/bus';
import { createLogger } from '@handoff/observability';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import type { AgentIdentity, BearerKeyVerifier } from '../src/auth/bearer-keys.ts';
import type { StaffVerifier } from '../src/auth/staff-jwt.ts';
import { HttpError } from '../src/http/errors.ts';
import { authenticate, type AuthDeps } from '../src/http/pipeline/authenticate.ts';
import { parseJson } from '../src/http/pipeline/body.ts';
import { notModified } from '../src/http/pipeline/conditional-get.ts';
import { failureAnswer } from '../src/http/pipeline/errors.ts';
import type { Exchange } from '../src/http/pipeline/exchange.ts';
import { idempotencyScope, idempotent } from '../src/http/pipeline/idempotency.ts';
import {
  requestTokenOf,
  tokenRouteOf,
  verifyRequest,
  type TokenCall,
} from '../src/http/pipeline/request-token.ts';
import { validateInput } from '../src/http/pipeline/schema.ts';
import { csrfTokenOf } from '../src/auth/workspace-sessions.ts';
import { RequestId } from '../src/http/request-id.ts';
import { defineRoute, type RouteDefinition } from '../src/http/route.ts';
import { createRequestCache, sha256Hex } from '@handoff/runtime';
import { requestOps, type Operation } from '@handoff/contracts';
import type { IdempotencyOutcome, IdempotencyStore } from '../src/idempotency.ts';
import type { RateLimiter, RateLimitPolicy } from '../src/ratelimit.ts';

/** Each stage alone, with the parts it depends on faked; the HTTP tests run them together. */

/** A call with these headers; `sent` collects the headers the stages add to its answer. */
function exchange(headers: Record<string, string> = {}, method = 'GET') {
  const sent: Record<string, string> = {};
  const call: Exchange = {
    callId: 'call_test',
    address: '203.0.113.7',
    method,
    path: '/v1/things',
    origin: 'http://gateway.test',
    secure: false,
    header: (name) => headers[name.toLowerCase()],
    setHeaders: (added) => Object.assign(sent, added),
  };
  return { call, sent };
}

/** A logger whose lines are kept, to see what a stage logged. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    service: 'pipeline-test',
    version: 'test',
    level: 'info',
    destination: {
      write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
    },
  });
  return { logger, lines };
}

const agent: AgentIdentity = {
  key_id: 'key_1',
  integration_id: 'int_1',
  livemode: true,
  scopes: ['requests:read'],
  expires_at: '2099-01-01T00:00:00.000Z',
};

/** A workspace session's cookie value, and what the verifier answers for it. */
const SESSION_TOKEN = `hws_${'a'.repeat(43)}`;
const session = {
  session_id: 'pss_1',
  provider_id: 'prv_1',
  expires_at: '2099-01-01T00:00:00.000Z',
  csrf_token: csrfTokenOf(SESSION_TOKEN),
};

const policies: AuthDeps['policies'] = {
  key: { name: 'key', limit: 10, windowSeconds: 60 },
  public: { name: 'public', limit: 10, windowSeconds: 60 },
  signIn: { name: 'sign_in', limit: 10, windowSeconds: 60 },
};

/** Authentication deps where every credential is good and every counter has room. */
function authDeps(overrides: Partial<AuthDeps> = {}) {
  const hits: string[] = [];
  const failures: string[] = [];
  const limiter: RateLimiter = {
    hit: async (policy: RateLimitPolicy, key: string) => {
      hits.push(`${policy.name}:${key}`);
      return { allowed: true, limit: policy.limit, remaining: 9, resetSeconds: 30, policy };
    },
  };
  const keys: BearerKeyVerifier<AgentIdentity> = {
    verify: async () => agent,
    cached: () => 0,
    stop: () => undefined,
  };
  const staff: StaffVerifier = async () => ({ ok: true, staff: { sub: 'ada', roles: ['staff'] } });
  const deps: AuthDeps = {
    keys,
    providers: {
      verify: async () => ({ key_id: 'pvk_1', provider_id: 'prv_1', expires_at: agent.expires_at }),
      cached: () => 0,
      stop: () => undefined,
    },
    staff,
    sessions: {
      verify: async (token: string) => {
        if (token !== SESSION_TOKEN) {
          throw new HttpError('workspace_session_invalid', 'The session has ended.');
        }
        return session;
      },
      cached: () => 0,
      stop: () => undefined,
    },
    guard: {
      failed: async (address: string) => {
        failures.push(address);
        return undefined;
      },
    },
    limiter,
    logger: capturedLogger().logger,
    policies,
    ...overrides,
  };
  return { deps, hits, failures };
}

async function refusal(pending: Promise<unknown>) {
  const error = await pending.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof HttpError)) throw new Error(`not refused with an HttpError: ${error}`);
  return error;
}

describe('authenticate', () => {
  it('gives each access kind its own caller', async () => {
    const { deps } = authDeps();
    const { call } = exchange({ 'x-application-secret': ' as_secret ' });
    await expect(authenticate({ kind: 'public' }, call, deps)).resolves.toEqual({ kind: 'public' });
    await expect(authenticate({ kind: 'applicant' }, call, deps)).resolves.toEqual({
      kind: 'applicant',
      applicationSecret: 'as_secret',
    });
    await expect(authenticate({ kind: 'staff' }, call, deps)).resolves.toMatchObject({
      kind: 'staff',
      staff: { sub: 'ada' },
    });
    await expect(authenticate({ kind: 'provider' }, call, deps)).resolves.toMatchObject({
      kind: 'provider',
      provider: { provider_id: 'prv_1' },
    });
    await expect(
      authenticate({ kind: 'agent', scopes: ['requests:read'] }, call, deps),
    ).resolves.toEqual({ kind: 'agent', agent });
  });

  it('takes a workspace session for a provider when no Authorization header is sent', async () => {
    const { deps, hits } = authDeps();
    const cookie = `theme=dark; handoff_session=${SESSION_TOKEN}`;
    const { call } = exchange({ cookie });
    await expect(authenticate({ kind: 'provider' }, call, deps)).resolves.toEqual({
      kind: 'provider',
      provider: { key_id: 'pss_1', provider_id: 'prv_1', expires_at: session.expires_at },
      session,
    });
    await expect(authenticate({ kind: 'workspace' }, call, deps)).resolves.toMatchObject({
      kind: 'workspace',
      session,
      sessionToken: SESSION_TOKEN,
    });
    // The session's own budget, as a key's.
    expect(hits).toEqual(['key:pss_1', 'key:pss_1']);
    // A key, when one is sent, is what counts: the cookie is not looked at.
    const keyed = exchange({ cookie, authorization: 'Bearer hpk_live_x' });
    await expect(authenticate({ kind: 'provider' }, keyed.call, deps)).resolves.toMatchObject({
      provider: { key_id: 'pvk_1' },
    });
  });

  it('refuses an ended session, and a change without the session’s CSRF token', async () => {
    const { deps, failures } = authDeps();
    const ended = exchange({ cookie: `handoff_session=hws_${'b'.repeat(43)}` });
    const refused = await refusal(authenticate({ kind: 'provider' }, ended.call, deps));
    expect([refused.status, refused.code]).toEqual([401, 'workspace_session_invalid']);
    // Counted like a refused key.
    expect(failures).toEqual(['203.0.113.7']);
    const none = await refusal(authenticate({ kind: 'workspace' }, exchange().call, deps));
    expect([none.status, none.code]).toEqual([401, 'workspace_session_invalid']);

    const cookie = `handoff_session=${SESSION_TOKEN}`;
    const cases: [Record<string, string>, string][] = [
      [{}, 'no token'],
      [{ 'x-csrf-token': 'f'.repeat(64) }, 'another token'],
      [{ 'x-csrf-token': session.csrf_token, origin: 'https://evil.example' }, 'another origin'],
      [{ 'x-csrf-token': session.csrf_token, 'sec-fetch-site': 'cross-site' }, 'another site'],
    ];
    for (const [headers, why] of cases) {
      const { call } = exchange({ cookie, ...headers }, 'POST');
      const error = await refusal(authenticate({ kind: 'provider' }, call, deps));
      expect({ why, status: error.status, code: error.code }).toEqual({
        why,
        status: 403,
        code: 'csrf_token_invalid',
      });
    }
    const good = exchange(
      {
        cookie,
        'x-csrf-token': session.csrf_token,
        origin: 'http://gateway.test',
        'sec-fetch-site': 'same-origin',
      },
      'POST',
    );
    await expect(authenticate({ kind: 'provider' }, good.call, deps)).resolves.toMatchObject({
      session,
    });
  });

  it('limits a caller without credentials by its address before looking at the secret', async () => {
    const { deps, hits, failures } = authDeps();
    const { call, sent } = exchange();
    const error = await refusal(authenticate({ kind: 'applicant' }, call, deps));
    expect([error.status, error.code]).toEqual([401, 'application_secret_missing']);
    expect(hits).toEqual(['public:ip:203.0.113.7']);
    expect(failures).toEqual(['203.0.113.7']);
    expect(sent).toHaveProperty('RateLimit');
  });

  it('checks an agent key, then its rate limit, then its scopes', async () => {
    const { deps, hits } = authDeps();
    const { call, sent } = exchange({ authorization: 'Bearer hk_live_x' });
    const error = await refusal(
      authenticate({ kind: 'agent', scopes: ['requests:read', 'messages:create'] }, call, deps),
    );
    expect([error.status, error.code]).toEqual([403, 'insufficient_scope']);
    expect(error.extra).toEqual({
      required_scopes: ['requests:read', 'messages:create'],
      missing_scopes: ['messages:create'],
    });
    expect(hits).toEqual(['key:key_1']);
    // The limit's headers go with the refusal too.
    expect(sent).toHaveProperty('RateLimit');

    const over = authDeps({
      limiter: {
        hit: async (policy) => ({
          allowed: false,
          limit: policy.limit,
          remaining: 0,
          resetSeconds: 30,
          policy,
        }),
      },
    });
    const limited = await refusal(
      authenticate({ kind: 'agent', scopes: ['messages:create'] }, call, over.deps),
    );
    expect([limited.status, limited.code]).toEqual([429, 'rate_limited']);
  });

  it('counts a refused key against the failure budget, and a bus failure is not a 401', async () => {
    const refused = new HttpError('api_key_invalid', 'The agent key is not valid.');
    const { deps, failures, hits } = authDeps({
      keys: {
        verify: async () => Promise.reject(refused),
        cached: () => 0,
        stop: () => undefined,
      },
    });
    const { call } = exchange({ authorization: 'Bearer hk_live_x' });
    expect(await refusal(authenticate({ kind: 'agent', scopes: [] }, call, deps))).toBe(refused);
    expect(failures).toEqual(['203.0.113.7']);
    expect(hits).toEqual([]);

    const down = authDeps({
      keys: {
        verify: async () => Promise.reject(new BusError('service_unavailable', 'no answer')),
        cached: () => 0,
        stop: () => undefined,
      },
    });
    const error = await refusal(authenticate({ kind: 'agent', scopes: [] }, call, down.deps));
    expect([error.status, error.code]).toEqual([503, 'service_unavailable']);
    expect(down.failures).toEqual([]);
  });
});

describe('request token presence', () => {
  it('is asked only of routes that take a token', () => {
    expect(requestTokenOf({}, exchange().call)).toBeUndefined();
    expect(
      requestTokenOf(
        { requestToken: 'owner' },
        exchange({ 'x-service-request-token': ' hrt_x ' }).call,
      ),
    ).toBe('hrt_x');
    expect(() => requestTokenOf({ requestToken: 'open' }, exchange().call)).toThrow(
      expect.objectContaining({ status: 401, code: 'request_token_missing' }),
    );
  });
});

describe('routes about a request', () => {
  const route = (fields: Partial<RouteDefinition>) =>
    ({
      method: 'get',
      path: '/v1/request/{id}/things',
      operationId: 'listRequestThings',
      summary: 'Things',
      tags: ['things'],
      access: { kind: 'agent', scopes: [] },
      status: 200,
      response: z.string(),
      handle: async () => 'ok',
      ...fields,
    }) as RouteDefinition;
  const ofRequest = z.strictObject({ id: RequestId });

  it('name the request by their RequestId parameter and say what they need of its token', () => {
    expect(tokenRouteOf(route({ requestToken: 'open', params: ofRequest }))).toEqual({
      need: 'open',
      param: 'id',
    });
    expect(
      tokenRouteOf(route({ path: '/v1/things/{id}', params: z.strictObject({ id: z.string() }) })),
    ).toBeUndefined();
  });

  it('are refused when mounted without what the check needs', () => {
    for (const [fields, why] of [
      [{ params: ofRequest }, 'declares requestToken'],
      [{ params: z.strictObject({ id: z.string() }) }, 'under a request declares requestToken'],
      [{ requestToken: 'owner', params: z.strictObject({ id: z.string() }) }, 'one RequestId'],
      [{ requestToken: 'owner', params: ofRequest, access: { kind: 'staff' } }, 'agent routes'],
    ] as const) {
      expect(() => tokenRouteOf(route(fields as Partial<RouteDefinition>))).toThrow(why);
    }
  });
});

describe('the request token check', () => {
  const token = 'hrt_right';
  /** A call as the check makes it: `authorize` and `status` answered from `requests`. */
  function check(
    requests: Record<string, { integration_id: string; status: string }>,
    caller = 'int_a',
  ) {
    const asked: string[] = [];
    const call = (async (op: Operation, input: { request_id: string }) => {
      asked.push(op.subject);
      const request = requests[input.request_id];
      if (!request) throw new BusError('request_not_found', 'No such request.');
      return op === requestOps.authorize
        ? { integration_id: request.integration_id, token_hash: sha256Hex(token) }
        : { status: request.status };
    }) as TokenCall['call'];
    const cache = createRequestCache();
    const callOf = (id: string, given = token): TokenCall => ({
      params: { id },
      caller: { kind: 'agent', agent: { ...agent, integration_id: caller } },
      token: given,
      call,
      requests: cache,
    });
    return { asked, callOf };
  }
  const answer = async (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: HttpError) => `${error.status} ${error.code}`,
    );

  it('answers 404 for unknown and foreign requests, then 403 for a wrong token, then 409 when closed', async () => {
    const open = { need: 'open', param: 'id' } as const;
    const mine = check({
      req_open: { integration_id: 'int_a', status: 'submitted' },
      req_closed: { integration_id: 'int_a', status: 'cancelled' },
      req_other: { integration_id: 'int_b', status: 'cancelled' },
    });
    expect(await answer(verifyRequest(open, mine.callOf('req_none')))).toBe(
      '404 request_not_found',
    );
    expect(await answer(verifyRequest(open, mine.callOf('req_other')))).toBe(
      '404 request_not_found',
    );
    expect(await answer(verifyRequest(open, mine.callOf('req_closed', 'hrt_wrong')))).toBe(
      '403 request_token_invalid',
    );
    expect(await answer(verifyRequest(open, mine.callOf('req_closed')))).toBe('409 request_closed');
    await expect(verifyRequest(open, mine.callOf('req_open'))).resolves.toMatchObject({
      id: 'req_open',
      status: 'submitted',
    });
    // `owner` does not ask for the status; the owner of a request is asked about once.
    const owner = { need: 'owner', param: 'id' } as const;
    mine.asked.length = 0;
    expect(await answer(verifyRequest(owner, mine.callOf('req_closed')))).toBe('ok');
    expect(mine.asked).toEqual([]);
    const fresh = check({ req_1: { integration_id: 'int_a', status: 'submitted' } });
    await verifyRequest(owner, fresh.callOf('req_1'));
    await verifyRequest(owner, fresh.callOf('req_1', 'hrt_wrong')).catch(() => undefined);
    expect(fresh.asked).toEqual([requestOps.authorize.subject]);
  });
});

describe('conditional GET', () => {
  it("answers 304 to a GET naming the route's ETag only", () => {
    const route = { headers: { ETag: '"v1"' } };
    expect(notModified(route, exchange({ 'if-none-match': '"v1"' }).call)).toBe(true);
    expect(notModified(route, exchange({ 'if-none-match': '"v0"' }).call)).toBe(false);
    expect(notModified(route, exchange({ 'if-none-match': '"v1"' }, 'HEAD').call)).toBe(false);
    expect(notModified({}, exchange({ 'if-none-match': '"v1"' }).call)).toBe(false);
  });
});

describe('body and schema', () => {
  it('reads JSON, an empty body as {}, and refuses what is not JSON of an acceptable shape', () => {
    expect(parseJson(' {"a": [1]} ')).toEqual({ a: [1] });
    expect(parseJson('')).toEqual({});
    // Whitespace alone is no JSON value (Schemathesis sent `\t` to an optional body, and got 201).
    for (const text of ['  ', '\t', '{', '{"a": 1, "a": 2}']) {
      expect(() => parseJson(text)).toThrow(
        expect.objectContaining({ status: 400, code: 'invalid_json' }),
      );
    }
  });

  it('checks the path, then the query, then the body', () => {
    const route = {
      params: z.strictObject({ id: z.string().max(3) }),
      query: z.strictObject({ limit: z.coerce.number() }),
      body: z.strictObject({ text: z.string() }),
    };
    const firstPointer = (input: Parameters<typeof validateInput>[1]) => {
      try {
        validateInput(route, input);
      } catch (error) {
        if (error instanceof HttpError) {
          return (error.extra.errors as { pointer: string }[])[0]?.pointer;
        }
      }
      return undefined;
    };
    expect(firstPointer({ params: { id: 'long' }, query: {}, body: {} })).toBe('/params/id');
    expect(firstPointer({ params: { id: 'a' }, query: {}, body: {} })).toBe('/query/limit');
    expect(firstPointer({ params: { id: 'a' }, query: { limit: '5' }, body: {} })).toBe('/text');
    expect(
      validateInput(route, { params: { id: 'a' }, query: { limit: '5' }, body: { text: 'hi' } }),
    ).toEqual({ params: { id: 'a' }, query: { limit: 5 }, body: { text: 'hi' } });
    // Without schemas the path and query pass as they came, and there is no body.
    expect(validateInput({}, { params: { id: 'a' }, query: {}, body: { text: 1 } })).toEqual({
      params: { id: 'a' },
      query: {},
      body: undefined,
    });
  });
});

describe('idempotency, alone', () => {
  /** A store that answers `begin` with `outcome` and records what happened to the claim. */
  function store(outcome: 'proceed' | { status: number; body: unknown }, completeFails = false) {
    const events: string[] = [];
    const begun: IdempotencyStore = {
      begin: async (scope, key, fingerprint) => {
        events.push(`begin ${scope} ${key} ${fingerprint}`);
        const result: IdempotencyOutcome =
          outcome === 'proceed'
            ? {
                kind: 'proceed',
                complete: async (status) => {
                  events.push(`complete ${status}`);
                  if (completeFails) throw new Error('store down');
                },
                abandon: async () => {
                  events.push('abandon');
                },
              }
            : { kind: 'replay', ...outcome, bodyStored: typeof outcome.body === 'string' };
        return result;
      },
    };
    return { store: begun, events };
  }
  const call = (key: string | undefined) => ({
    key,
    scope: 'int_1',
    fingerprint: () => 'fp',
    status: 201,
  });

  it('runs a call without a key as it is', async () => {
    const { store: kept, events } = store('proceed');
    const { logger } = capturedLogger();
    await expect(
      idempotent(kept, call(undefined), async () => 'done', { logger, callId: 'r' }),
    ).resolves.toEqual({ replayed: false, body: 'done' });
    expect(events).toEqual([]);
  });

  it('keeps a success for replays, and lets a failure be retried with the same key', async () => {
    const ok = store('proceed');
    const { logger } = capturedLogger();
    await expect(
      idempotent(ok.store, call('k1'), async () => ({ id: 'x' }), { logger, callId: 'r' }),
    ).resolves.toEqual({ replayed: false, body: { id: 'x' } });
    expect(ok.events).toEqual(['begin int_1 k1 fp', 'complete 201']);

    const failing = store('proceed');
    const boom = new Error('handler failed');
    await expect(
      idempotent(failing.store, call('k1'), async () => Promise.reject(boom), {
        logger,
        callId: 'r',
      }),
    ).rejects.toBe(boom);
    expect(failing.events).toEqual(['begin int_1 k1 fp', 'abandon']);
  });

  it('answers even when the record cannot be kept, and logs that', async () => {
    const { store: down } = store('proceed', true);
    const { logger, lines } = capturedLogger();
    await expect(
      idempotent(down, call('k1'), async () => 'done', { logger, callId: 'call_9' }),
    ).resolves.toEqual({ replayed: false, body: 'done' });
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'idempotency record not stored', call_id: 'call_9' }),
    );
  });

  it('replays the first answer, or its status alone when its body was not kept', async () => {
    // What the first call stored: its sealed answer, which only its key opens.
    const first = store('proceed');
    let sealed: unknown;
    const capture: IdempotencyStore = {
      begin: async (...args) => {
        const outcome = await first.store.begin(...args);
        if (outcome.kind !== 'proceed') return outcome;
        return {
          ...outcome,
          complete: async (status, body) => {
            sealed = body;
            return outcome.complete(status, body);
          },
        };
      },
    };
    const { logger } = capturedLogger();
    await idempotent(capture, call('k1'), async () => ({ id: 'x' }), { logger, callId: 'r' });

    const again = store({ status: 201, body: sealed });
    await expect(
      idempotent(again.store, call('k1'), async () => 'ran twice', { logger, callId: 'r' }),
    ).resolves.toEqual({ replayed: true, status: 201, stored: true, body: { id: 'x' } });

    const statusOnly = store({ status: 201, body: undefined });
    await expect(
      idempotent(statusOnly.store, call('k1'), async () => 'ran twice', {
        logger,
        callId: 'r',
      }),
    ).resolves.toEqual({ replayed: true, status: 201, stored: false, body: undefined });
  });

  it('keeps keys apart per caller', () => {
    expect(idempotencyScope({ kind: 'agent', agent }, '::1')).toBe('int_1');
    expect(idempotencyScope({ kind: 'staff', staff: { sub: 'ada', roles: [] } }, '::1')).toBe(
      'staff:ada',
    );
    expect(idempotencyScope({ kind: 'public' }, '::1')).toBe('ip:::1');
    expect(idempotencyScope({ kind: 'applicant', applicationSecret: 's' }, '::1')).toMatch(
      /^applicant:[0-9a-f]{64}$/,
    );
  });
});

describe('failures', () => {
  const route = {
    access: { kind: 'agent', scopes: [] },
    operationId: 'getThing',
  } as const;

  it('passes a bus failure on with the code, message and details the service gave', async () => {
    const { logger } = capturedLogger();
    const guard = { failed: async () => undefined };
    const answer = await failureAnswer(
      new BusError('milestone_not_found', 'No such milestone.'),
      route,
      exchange().call,
      { guard, logger },
    );
    expect([answer.status, answer.code, answer.message]).toEqual([
      404,
      'milestone_not_found',
      'No such milestone.',
    ]);
    const closed = await failureAnswer(
      new BusError('request_closed', 'The request is completed.', {
        details: { current_state: 'completed' },
      }),
      route,
      exchange().call,
      { guard, logger },
    );
    expect([closed.status, closed.code, closed.extra]).toEqual([
      409,
      'request_closed',
      { current_state: 'completed' },
    ]);
  });

  it('answers a service that did not answer with 503 and Retry-After, naming no subject', async () => {
    const { logger } = capturedLogger();
    const answer = await failureAnswer(
      new BusError('service_unavailable', 'handoff.intake.requests.get: timed out'),
      route,
      exchange().call,
      { guard: { failed: async () => undefined }, logger },
    );
    expect([answer.status, answer.code, answer.headers]).toEqual([
      503,
      'service_unavailable',
      { 'Retry-After': '1' },
    ]);
    expect(answer.message).not.toContain('handoff.');
  });

  it("logs a service's internal error and answers a bare 500", async () => {
    const { logger, lines } = capturedLogger();
    const answer = await failureAnswer(
      new BusError('internal_error', 'handoff.intake.requests.get: reply does not match'),
      route,
      exchange().call,
      { guard: { failed: async () => undefined }, logger },
    );
    expect([answer.status, answer.code]).toEqual([500, 'internal_error']);
    expect(answer.message).not.toContain('handoff.');
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'route failed', bus: true }));
  });

  it('counts a 404 of an applicant route as a failed authentication', async () => {
    const { logger } = capturedLogger();
    const blocked = new HttpError('rate_limited', 'Too many failed authentication attempts.');
    const answer = await failureAnswer(
      new HttpError('application_not_found', 'No such access application.'),
      { access: { kind: 'applicant' }, operationId: 'getAccessApplication' },
      exchange().call,
      { guard: { failed: async () => blocked }, logger },
    );
    expect(answer).toBe(blocked);
  });

  it('logs anything else and answers a bare 500', async () => {
    const { logger, lines } = capturedLogger();
    const answer = await failureAnswer(new TypeError('oops'), route, exchange().call, {
      guard: { failed: async () => undefined },
      logger,
    });
    expect([answer.status, answer.code]).toEqual([500, 'internal_error']);
    expect(answer.message).not.toContain('oops');
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'route failed', route: 'getThing', call_id: 'call_test' }),
    );
  });
});

describe('defineRoute', () => {
  it("gives a handler only the caller of its route's access kind, and the fields of its flags", () => {
    const staffRoute = defineRoute({
      method: 'get',
      path: '/v1/staff/things',
      operationId: 'listThingsAsStaff',
      summary: 'Things',
      tags: ['staff'],
      access: { kind: 'staff' },
      status: 200,
      response: z.string(),
      handle: async (ctx) => {
        // @ts-expect-error A staff route has no calling integration.
        void ctx.agent;
        // @ts-expect-error Nor a verified request: it declares no `requestToken`.
        void ctx.request;
        return ctx.staff.sub;
      },
    });
    const customerRoute = defineRoute({
      method: 'post',
      path: '/v1/request/{id}/notes',
      operationId: 'addThingNote',
      summary: 'A note on a thing',
      tags: ['things'],
      access: { kind: 'agent', scopes: ['messages:create'] },
      requestToken: 'open',
      params: z.strictObject({ id: RequestId }),
      body: z.strictObject({ text: z.string() }),
      status: 201,
      response: z.object({ ok: z.boolean() }),
      handle: async (ctx) => {
        const owner: string = ctx.agent.integration_id;
        const request: string = ctx.request.id;
        const status: string = ctx.request.status;
        // @ts-expect-error An agent route has no staff member.
        void ctx.staff;
        return { ok: [owner, request, status, ctx.body.text].every(Boolean) };
      },
    });
    const routes: RouteDefinition[] = [staffRoute, customerRoute];
    expect(routes.map((route) => route.access.kind)).toEqual(['staff', 'agent']);
  });

  it('refuses a route about a request that does not say what it needs of the token', () => {
    const thing = {
      method: 'get',
      path: '/v1/request/{id}/thing',
      operationId: 'getThing',
      summary: 'A thing',
      tags: ['things'],
      status: 200,
      response: z.string(),
    } as const;
    const agent = { kind: 'agent', scopes: [] } as const;
    const ofRequest = z.strictObject({ id: RequestId });
    const refused = [
      // @ts-expect-error A RequestId parameter without `requestToken`.
      defineRoute({ ...thing, access: agent, params: ofRequest, handle: async () => 'x' }),
      defineRoute({
        ...thing,
        access: agent,
        // @ts-expect-error `requestToken` without a RequestId parameter to name the request.
        requestToken: 'owner',
        params: z.strictObject({ id: z.string() }),
        handle: async () => 'x',
      }),
      defineRoute({
        ...thing,
        access: { kind: 'provider' },
        // @ts-expect-error Only an agent's integration owns requests.
        requestToken: 'owner',
        params: ofRequest,
        handle: async () => 'x',
      }),
      defineRoute({
        ...thing,
        access: agent,
        params: z.strictObject({ id: z.string() }),
        // @ts-expect-error A handler reads no verified request without declaring `requestToken`.
        handle: async (ctx) => ctx.request.id,
      }),
    ];
    // The same rules hold when the table is mounted, for routes built without these types.
    for (const route of refused) expect(() => tokenRouteOf(route)).toThrow(route.operationId);
  });
});
