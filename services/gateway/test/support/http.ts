import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { RunningGateway } from '../../src/bootstrap.ts';
import { signStaffToken } from './staff-tokens.ts';

export interface Call {
  method?: string;
  body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  headers?: Record<string, string>;
  /** The client address, through `X-Forwarded-For` (the test gateways trust the proxy). */
  from?: string;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** One JSON call to a gateway over a real socket. */
export async function http(
  gateway: RunningGateway,
  path: string,
  call: Call = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    'X-Forwarded-For': call.from ?? '198.51.100.7',
    ...call.headers,
  };
  if (call.token) headers.Authorization = `Bearer ${call.token}`;
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${gateway.url}${path}`, {
    method: call.method ?? (call.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: res.headers,
  };
}

/**
 * A client address of its own (random in the IPv6 documentation range), so per-address limits,
 * whose counters every test file on the same NATS server shares, never leak between tests.
 */
export const address = () =>
  `2001:db8::${randomBytes(8).toString('hex').match(/.{4}/g)?.join(':') ?? '1'}`;

export interface Onboarded {
  applicationId: string;
  applicationSecret: string;
  key: string;
  keyId: string;
  integrationId: string;
}

/** Application → staff approval → claimed key, over HTTP only. */
export async function onboard(
  gateway: RunningGateway,
  staffSecret: string,
  audience: string | undefined,
  scopes: string[],
): Promise<Onboarded> {
  const submitted = await http(gateway, '/v1/access-applications', {
    body: {
      app_name: 'Acme Concierge',
      description: 'Hands travel requests to humans.',
      contact_email: 'dev@acme.example',
      requested_scopes: scopes,
    },
    from: address(),
  });
  expect(submitted.status).toBe(201);
  const applicationId = String(submitted.body.id);
  const applicationSecret = String(submitted.body.application_secret);
  const staff = await signStaffToken(staffSecret, {
    sub: 'ops@handoff.test',
    ...(audience ? { audience } : {}),
  });
  const approved = await http(gateway, `/v1/staff/access-applications/${applicationId}/approve`, {
    token: staff,
    body: { scopes },
  });
  expect(approved.status).toBe(200);
  const claimed = await http(gateway, `/v1/access-applications/${applicationId}/api-key`, {
    method: 'POST',
    headers: { 'X-Application-Secret': applicationSecret },
    from: address(),
  });
  expect(claimed.status).toBe(201);
  return {
    applicationId,
    applicationSecret,
    key: String(claimed.body.api_key),
    keyId: String(claimed.body.key_id),
    integrationId: String(approved.body.integration_id),
  };
}
