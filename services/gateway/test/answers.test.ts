import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateApiKey } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import type { Onboarded } from './support/http.ts';
import {
  agentOf,
  asCustomer,
  engagement,
  http,
  providerOf,
  requestOf,
  startStack,
  type ProviderAccount,
  type Stack,
} from './support/lifecycle.ts';

// The answers an agent developer expects (issue 12), against the whole stack: the order of the
// credential checks, currency case, the 401 details, and the Request view's extension fields.

let stack: Stack;
let agent: Onboarded;
let plumber: ProviderAccount;

beforeAll(async () => {
  stack = await startStack('gw_answers');
  agent = await agentOf(stack);
  plumber = await providerOf(stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('a missing request token', () => {
  it('answers 401 before the body is looked at', async () => {
    const request = await requestOf(stack, agent);
    for (const body of [{ nonsense: true }, { message: '' }]) {
      const answer = await http(stack.gateway, `/v1/request/${request.id}/message`, {
        token: agent.key,
        body,
      });
      expect(answer).toMatchObject({ status: 401, body: { code: 'request_token_missing' } });
    }
    // Malformed JSON and a wrong content type do not come first either.
    const broken = await fetch(`${stack.gateway.url}/v1/request/${request.id}/payment-request`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent.key}`, 'Content-Type': 'text/plain' },
      body: '{"amount":',
    });
    expect(broken.status).toBe(401);
    expect(await broken.json()).toMatchObject({ code: 'request_token_missing' });
    // With the token, the same bad body is a 422.
    expect(
      await asCustomer(stack, agent, request, '/message', { body: { nonsense: true } }),
    ).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
  });
});

describe('currency codes', () => {
  it('are taken in any case and returned upper case', async () => {
    const request = await requestOf(stack, agent);
    for (const [given, stored] of [
      ['eur', 'EUR'],
      ['Jpy', 'JPY'],
    ] as const) {
      const created = await asCustomer(stack, agent, request, '/payment-request', {
        body: { amount: 100, currency: given, description: 'Call-out' },
      });
      expect(created).toMatchObject({ status: 201, body: { currency: stored, amount: 100 } });
    }
    // The precision follows the code whatever its case: yen has no minor unit.
    expect(
      await asCustomer(stack, agent, request, '/payment-request', {
        body: { amount: 100.5, currency: 'jpy', description: 'Call-out' },
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/amount' }] } });
  });

  it('still refuses an unknown code, saying what a code is', async () => {
    const request = await requestOf(stack, agent);
    const unknown = await asCustomer(stack, agent, request, '/payment-request', {
      body: { amount: 1, currency: 'xyz', description: 'x' },
    });
    expect(unknown).toMatchObject({
      status: 422,
      body: {
        errors: [
          {
            pointer: '/currency',
            detail: 'not an ISO 4217 currency code (three letters, e.g. USD, EUR, JPY)',
          },
        ],
      },
    });
  });
});

describe('401 details', () => {
  const agentRoute = '/v1/ai-to-human-request';
  const body = { message: 'Hello' };
  const detailOf = async (path: string, authorization: string | undefined) => {
    const answer = await http(stack.gateway, path, {
      ...(path === agentRoute ? { body } : {}),
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });
    expect(answer.status).toBe(401);
    // The credential never comes back.
    if (authorization) {
      const secret = authorization.split(/\s+/).at(-1) ?? '';
      expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
    return { code: answer.body.code, detail: String(answer.body.detail) };
  };

  it('tell a missing scheme, a staff token and a provider key apart on agent routes', async () => {
    const answers = {
      none: await detailOf(agentRoute, undefined),
      noScheme: await detailOf(agentRoute, agent.key),
      basic: await detailOf(agentRoute, 'Basic dXNlcjpwYXNz'),
      staff: await detailOf(agentRoute, `Bearer ${stack.staff}`),
      provider: await detailOf(agentRoute, `Bearer ${plumber.key}`),
      malformed: await detailOf(agentRoute, 'Bearer hk_live_not-a-key'),
      unknown: await detailOf(agentRoute, `Bearer ${generateApiKey().key}`),
    };
    expect(answers.none).toEqual({
      code: 'api_key_missing',
      detail: 'Send the agent key as `Authorization: Bearer <key>`.',
    });
    expect(answers.noScheme.code).toBe('api_key_invalid');
    expect(answers.noScheme.detail).toMatch(/lacks the `Bearer` scheme/);
    expect(answers.basic.detail).toMatch(/uses another scheme/);
    expect(answers.staff.detail).toMatch(/not a staff token/);
    expect(answers.provider.detail).toMatch(/not a provider key/);
    expect(answers.malformed.detail).toMatch(/malformed/);
    // A well-formed key nobody issued gets the plain answer: no oracle on stored keys.
    expect(answers.unknown.detail).toBe('The agent key is not valid.');
    for (const answer of Object.values(answers).slice(1)) {
      expect(answer.code).toBe('api_key_invalid');
    }
    // Each case says something of its own.
    const details = Object.values(answers).map((answer) => answer.detail);
    expect(new Set(details).size).toBe(details.length);
  });

  it('tell a staff token and a missing scheme apart on provider routes', async () => {
    const staffToken = await detailOf('/v1/provider/me', `Bearer ${stack.staff}`);
    expect(staffToken).toMatchObject({ code: 'api_key_invalid' });
    expect(staffToken.detail).toMatch(/takes a provider key .*not a staff token/);
    const noScheme = await detailOf('/v1/provider/me', plumber.key);
    expect(noScheme.detail).toMatch(/lacks the `Bearer` scheme/);
  });

  it('tell a missing scheme and an agent key apart on staff routes', async () => {
    const noScheme = await detailOf('/v1/staff/deadlines', stack.staff);
    expect(noScheme).toMatchObject({ code: 'staff_token_missing' });
    expect(noScheme.detail).toMatch(/lacks the `Bearer` scheme/);
    const agentKey = await detailOf('/v1/staff/deadlines', `Bearer ${agent.key}`);
    expect(agentKey).toMatchObject({ code: 'staff_token_invalid' });
    expect(agentKey.detail).toMatch(/agent API keys are not accepted/);
  });
});

describe('the Request view', () => {
  it('names the engaged provider once a proposal is accepted, null before', async () => {
    const fresh = await requestOf(stack, agent);
    expect(await asCustomer(stack, agent, fresh, '')).toMatchObject({
      status: 200,
      body: { engaged_provider_id: null },
    });
    const { request } = await engagement(stack, agent, plumber);
    const read = await eventually(
      async () => {
        const answer = await asCustomer(stack, agent, request, '');
        return answer.body.engaged_provider_id === plumber.id ? answer : undefined;
      },
      { what: 'the engaged provider in the request read' },
    );
    expect(read.body).toMatchObject({ status: 'in_progress', engaged_provider_id: plumber.id });
    expect(
      await http(stack.gateway, `/v1/staff/requests/${request.id}`, { token: stack.staff }),
    ).toMatchObject({ status: 200, body: { engaged_provider_id: plumber.id } });
  });
});
