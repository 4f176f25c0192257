import type { BackendService } from '@handoff/contracts';
import { bootstrap as conversation } from '@handoff/conversation';
import { bootstrap as gateway, type RunningGateway } from '@handoff/gateway';
import { bootstrap as intake } from '@handoff/intake';
import { bootstrap as milestones } from '@handoff/milestones';
import { bootstrap as notifications } from '@handoff/notifications';
import { bootstrap as payments } from '@handoff/payments';
import { bootstrap as dispatcher } from '@handoff/webhook-dispatcher';
import { natsEnv, uniqueDatabase, serviceEnv } from '@handoff/testkit';
import { expect } from '@jest/globals';
import { SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** The console's build, which the package's test script makes before jest runs. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * The whole backend a staff console acts on, in this process against the worker's real NATS and
 * MongoDB-wire servers: intake, conversation, payments (manual provider), milestones, the
 * webhook dispatcher (the event feed), notifications (mail to the worker's Mailpit), and a
 * gateway that serves the console's build at /console.
 */
export interface Stack {
  gateway: RunningGateway;
  /** A staff JWT (HS256) the gateway accepts. */
  staff: string;
  stop(): Promise<void>;
}

export async function startStack(label: string): Promise<Stack> {
  const secret = randomBytes(32).toString('base64url');
  const env = (service: BackendService) =>
    serviceEnv(service, uniqueDatabase(`${label}_${service}`));
  const running: { stop(): Promise<void> }[] = [];
  const stop = async () => {
    for (const service of running.reverse()) await service.stop().catch(() => undefined);
  };
  try {
    running.push(await intake({ env: env('intake') }));
    running.push(await conversation({ env: env('conversation') }));
    running.push(await payments({ env: env('payments') }));
    running.push(await milestones({ env: env('milestones') }));
    // Receivers in the test process listen on loopback, hence private targets.
    running.push(
      await dispatcher({
        env: {
          ...env('webhook-dispatcher'),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_RETRY_SCHEDULE: '1,1,1',
          WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
        },
      }),
    );
    running.push(await notifications({ env: env('notifications') }));
    const front = await gateway({
      env: {
        ...natsEnv('gateway'),
        PORT: '0',
        STAFF_JWT_SECRET: secret,
        CONSOLE_DIR: CONSOLE_DIST,
        PUBLIC_RATE_LIMIT_PER_MINUTE: '10000',
        AUTH_FAILURE_LIMIT_PER_MINUTE: '10000',
        RATE_LIMIT_PER_MINUTE: '10000',
        LOG_LEVEL: 'silent',
      },
    });
    running.push(front);
    const now = Math.floor(Date.now() / 1000);
    const staff = await new SignJWT({ sub: 'ops@handoff.test', roles: ['staff'] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode(secret));
    return { gateway: front, staff, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One JSON call to the gateway, outside the browser (the other parties: agent, provider). */
export async function http(
  stack: Stack,
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
  stack: Stack,
  name: string,
  scopes: string[],
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
export async function approveAndClaim(stack: Stack, application: Application, scopes: string[]) {
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

/** A provider staff onboard in the home-services category, with a key. */
export async function providerOf(stack: Stack, name: string, email: string) {
  const created = await http(stack, '/v1/staff/providers', {
    token: stack.staff,
    body: { name, email, categories: ['home-services'] },
  });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const issued = await http(stack, `/v1/staff/providers/${id}/keys`, {
    method: 'POST',
    token: stack.staff,
  });
  expect(issued.status).toBe(201);
  return { id, key: String(issued.body.api_key) };
}
