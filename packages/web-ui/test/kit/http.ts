import { expect } from '@jest/globals';

/** Where the calls go, and the staff token they approve with. */
export interface Parties {
  gateway: { url: string };
  staff: string;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One JSON call to the gateway, outside the browser (the other parties: agent, provider). */
export async function http(
  stack: Parties,
  path: string,
  call: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.token) headers.Authorization = `Bearer ${call.token}`;
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${stack.gateway.url}${path}`, {
    method: call.method ?? (call.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export interface Application {
  id: string;
  secret: string;
  name: string;
}

/** An access application as an agent's developer submits it. */
export async function apply(
  stack: Parties,
  name: string,
  scopes: readonly string[],
  description = 'Hands household jobs to humans.',
): Promise<Application> {
  const submitted = await http(stack, '/v1/access-applications', {
    body: {
      app_name: name,
      description,
      contact_email: 'dev@example.com',
      requested_scopes: scopes,
    },
  });
  expect(submitted.status).toBe(201);
  return { id: String(submitted.body.id), secret: String(submitted.body.application_secret), name };
}

/** Staff approve the application with `scopes`, and its developer claims the agent key. */
export async function approveAndClaim(
  stack: Parties,
  application: Application,
  scopes: readonly string[],
) {
  const approved = await http(stack, `/v1/staff/access-applications/${application.id}/approve`, {
    token: stack.staff,
    body: { scopes },
  });
  expect(approved.status).toBe(200);
  const claimed = await http(stack, `/v1/access-applications/${application.id}/api-key`, {
    method: 'POST',
    headers: { 'X-Application-Secret': application.secret },
  });
  expect(claimed.status).toBe(201);
  return { integrationId: String(approved.body.integration_id), key: String(claimed.body.api_key) };
}
