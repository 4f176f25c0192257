import type { BackendService } from '@handoff/contracts';
import { expect } from '@jest/globals';
import { bootstrap as conversation } from '@handoff/conversation';
import { bootstrap as intake } from '@handoff/intake';
import { bootstrap as milestones } from '@handoff/milestones';
import { bootstrap as dispatcher } from '@handoff/webhook-dispatcher';
import { bootstrap as payments } from '@handoff/payments';
import { natsEnv, testServers, uniqueDatabase } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import { bootstrap, type RunningGateway } from '../../src/bootstrap.ts';
import { address, http, onboard, type Answer, type Onboarded } from './http.ts';
import { signStaffToken } from './staff-tokens.ts';

/**
 * The whole backend of the work lifecycle, in this process against the worker's real NATS and
 * MongoDB-wire servers: intake, conversation, payments and milestones, plus a gateway.
 */

/** Every scope of the customer's side, and the request scopes an engagement needs. */
export const LIFECYCLE_SCOPES = [
  'requests:create',
  'requests:read',
  'messages:create',
  'payments:propose',
  'proposals:read',
  'proposals:accept',
  'jobs:read',
  'milestones:read',
  'milestones:review',
  'disputes:read',
  'disputes:manage',
];

interface Stoppable {
  stop(): Promise<void>;
}

export interface Stack {
  gateway: RunningGateway;
  secret: string;
  staff: string;
  intake: Awaited<ReturnType<typeof intake>>;
  payments: Awaited<ReturnType<typeof payments>>;
  milestones: Awaited<ReturnType<typeof milestones>>;
  /** A further gateway on the same bus (its own caches), started on demand. */
  extraGateway(env?: Record<string, string>): Promise<RunningGateway>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Settings of the payments service beyond the defaults (manual provider). */
  payments?: Record<string, string>;
  /** Settings of the webhook dispatcher (the stack runs one; a test never starts a second). */
  dispatcher?: Record<string, string>;
  gateway?: Record<string, string>;
}

export async function startStack(label: string, options: StackOptions = {}): Promise<Stack> {
  const { mongoUrl } = testServers();
  const secret = randomBytes(32).toString('base64url');
  const env = (service: BackendService) => ({
    ...natsEnv(service),
    MONGO_URL: mongoUrl,
    MONGO_DB: uniqueDatabase(`${label}_${service}`),
    HEALTH_PORT: '0',
    LOG_LEVEL: 'silent',
  });
  const running: Stoppable[] = [];
  const gatewayEnv = (extra: Record<string, string> = {}) => ({
    ...natsEnv('gateway'),
    PORT: '0',
    STAFF_JWT_SECRET: secret,
    TRUST_PROXY: 'true',
    BUS_TIMEOUT_MS: '3000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '10000',
    AUTH_FAILURE_LIMIT_PER_MINUTE: '10000',
    RATE_LIMIT_PER_MINUTE: '10000',
    LOG_LEVEL: 'silent',
    ...options.gateway,
    ...extra,
  });
  try {
    const intakeService = await intake({ env: env('intake') });
    running.push(intakeService);
    const conversationService = await conversation({ env: env('conversation') });
    running.push(conversationService);
    const paymentsService = await payments({ env: { ...env('payments'), ...options.payments } });
    running.push(paymentsService);
    const milestonesService = await milestones({ env: env('milestones') });
    running.push(milestonesService);
    // Staff's audit log merges the dispatcher's page too. One dispatcher only: two would share
    // its durable consumers and each see part of the events.
    running.push(
      await dispatcher({
        env: {
          ...env('webhook-dispatcher'),
          WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
          ...options.dispatcher,
        },
      }),
    );
    const gateway = await bootstrap({ env: gatewayEnv() });
    running.push(gateway);
    return {
      gateway,
      secret,
      staff: await signStaffToken(secret, { sub: 'ops@handoff.test', expiresInSeconds: 3600 }),
      intake: intakeService,
      payments: paymentsService,
      milestones: milestonesService,
      async extraGateway(extra = {}) {
        const another = await bootstrap({ env: gatewayEnv(extra) });
        running.push(another);
        return another;
      },
      async stop() {
        // Gateways first, so that nothing calls a service that is going away.
        for (const service of running.reverse()) await service.stop().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const service of running.reverse()) await service.stop().catch(() => undefined);
    throw error;
  }
}

export const agentOf = (stack: Stack, scopes: string[] = LIFECYCLE_SCOPES): Promise<Onboarded> =>
  onboard(stack.gateway, stack.secret, undefined, scopes);

export interface ProviderAccount {
  id: string;
  name: string;
  key: string;
  keyId: string;
}

let providers = 0;

/** A provider onboarded by staff, with a key. */
export async function providerOf(
  stack: Stack,
  categories: string[] = ['home-services'],
): Promise<ProviderAccount> {
  providers += 1;
  const name = `Provider ${providers} ${randomBytes(3).toString('hex')}`;
  const created = await http(stack.gateway, '/v1/staff/providers', {
    token: stack.staff,
    body: { name, email: `provider${providers}@example.com`, categories },
  });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const issued = await http(stack.gateway, `/v1/staff/providers/${id}/keys`, {
    method: 'POST',
    token: stack.staff,
  });
  expect(issued.status).toBe(201);
  return { id, name, key: String(issued.body.api_key), keyId: String(issued.body.key_id) };
}

export const CUSTOMER = {
  message: 'Please find me a plumber for a leaking kitchen tap this week.',
  category: 'home-services',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  company: 'Analytical Engines Ltd',
  website: 'https://example.com',
  subject: 'Leaking tap',
  contact_permission: true,
  marketplace_opt_in: false,
  budget_min: 50,
  budget_max: 500,
};

export interface OwnedRequest {
  id: string;
  token: string;
}

export async function requestOf(
  stack: Stack,
  agent: Onboarded,
  body: Record<string, unknown> = {},
): Promise<OwnedRequest> {
  const created = await http(stack.gateway, '/v1/ai-to-human-request', {
    token: agent.key,
    body: { ...CUSTOMER, ...body },
  });
  expect(created.status).toBe(201);
  return { id: String(created.body.id), token: String(created.body.request_token) };
}

/** Staff route the request to these providers (it becomes `routed`). */
export async function routeTo(stack: Stack, requestId: string, providerIds: string[]) {
  const routed = await http(stack.gateway, `/v1/staff/requests/${requestId}`, {
    method: 'PATCH',
    token: stack.staff,
    body: { status: 'routed', routing: { mode: 'direct', provider_ids: providerIds } },
  });
  expect(routed.status).toBe(200);
}

/** A call as the agent for its customer: the agent key and the request token. */
export function asCustomer(
  stack: Stack,
  agent: Onboarded,
  request: OwnedRequest,
  path: string,
  call: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return http(stack.gateway, `/v1/request/${request.id}${path}`, {
    token: agent.key,
    ...call,
    headers: { 'X-Service-Request-Token': request.token, ...call.headers },
  });
}

export function asProvider(
  stack: Stack,
  provider: ProviderAccount,
  path: string,
  call: { method?: string; body?: unknown; headers?: Record<string, string>; from?: string } = {},
): Promise<Answer> {
  return http(stack.gateway, `/v1/provider${path}`, { token: provider.key, ...call });
}

export const asStaff = (
  stack: Stack,
  path: string,
  call: { method?: string; body?: unknown } = {},
): Promise<Answer> => http(stack.gateway, `/v1/staff${path}`, { token: stack.staff, ...call });

export const PROPOSAL = {
  message: 'I can fix it on Thursday; parts included.',
  amount: 240,
  currency: 'USD',
  estimated_days: 3,
  milestones: [
    { title: 'Diagnose the leak', amount: 40, due_in_days: 2 },
    { title: 'Replace the cartridge', amount: 200, due_in_days: 5 },
  ],
};

/** A request routed to the provider, its proposal accepted: the job and its plan's milestones. */
export async function engagement(
  stack: Stack,
  agent: Onboarded,
  provider: ProviderAccount,
  proposal: Record<string, unknown> = PROPOSAL,
) {
  const request = await requestOf(stack, agent);
  await routeTo(stack, request.id, [provider.id]);
  const proposed = await asProvider(stack, provider, `/requests/${request.id}/proposals`, {
    body: proposal,
  });
  expect(proposed.status).toBe(201);
  const accepted = await asCustomer(
    stack,
    agent,
    request,
    `/proposals/${String(proposed.body.id)}/accept`,
    { method: 'POST' },
  );
  expect(accepted.status).toBe(200);
  const job = accepted.body.job as { id: string };
  return { request, proposalId: String(proposed.body.id), jobId: job.id };
}

export { address, http };
