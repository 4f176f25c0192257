import { bootstrap as conversation } from '@handoff/conversation';
import { bootstrap as gateway, type RunningGateway } from '@handoff/gateway';
import { bootstrap as intake } from '@handoff/intake';
import { bootstrap as milestones } from '@handoff/milestones';
import { bootstrap as notifications } from '@handoff/notifications';
import { bootstrap as payments } from '@handoff/payments';
import { createHandoffClient, createStaffClient, type StaffClient } from '@handoff/sdk';
import { bootstrap as dispatcher } from '@handoff/webhook-dispatcher';
import { natsEnv, uniqueDatabase, serviceEnv } from '@handoff/testkit';
import { createHmac, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** The workspace's build, which the package's test script makes before jest runs. */
export const WORKSPACE_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * The whole backend a provider's workspace acts on, in this process against the worker's real
 * NATS, MongoDB-wire and Mailpit servers: intake, conversation, payments (manual provider),
 * milestones, the webhook dispatcher (the event feed behind the long-poll), a gateway that serves
 * the workspace's build at /workspace, and notifications, whose mails link to that gateway.
 */
export interface Stack {
  gateway: RunningGateway;
  /** The staff API with a staff JWT the gateway accepts. */
  staff: StaffClient;
  stop(): Promise<void>;
}

export async function startStack(label: string): Promise<Stack> {
  const secret = randomBytes(32).toString('base64url');
  const env = (service: Parameters<typeof serviceEnv>[0]) =>
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
    running.push(
      await dispatcher({
        env: {
          ...env('webhook-dispatcher'),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
        },
      }),
    );
    const front = await gateway({
      env: {
        ...natsEnv('gateway'),
        PORT: '0',
        STAFF_JWT_SECRET: secret,
        WORKSPACE_DIR: WORKSPACE_DIST,
        PUBLIC_RATE_LIMIT_PER_MINUTE: '10000',
        AUTH_FAILURE_LIMIT_PER_MINUTE: '10000',
        RATE_LIMIT_PER_MINUTE: '10000',
        LOG_LEVEL: 'silent',
      },
    });
    running.push(front);
    // Started after the gateway, whose address (a free port) its mails link to.
    running.push(await notifications({ env: { ...env('notifications'), PUBLIC_URL: front.url } }));
    const staff = createStaffClient({ baseUrl: front.url, token: staffToken(secret) });
    return { gateway: front, staff, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A staff JWT (HS256) for an hour, signed with the gateway's STAFF_JWT_SECRET. */
function staffToken(secret: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({
    sub: 'ops@handoff.test',
    roles: ['staff'],
    iat: now,
    exp: now + 3600,
  })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** Every scope the customer's side of an engagement uses. */
const CUSTOMER_SCOPES = [
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
  'events:read',
] as const;

/**
 * An agent with an approved integration and its key, as its developer gets one: it applies,
 * staff approve, the developer claims the key. Answers the agent's SDK client.
 */
export async function agentOf(stack: Stack, name: string) {
  const base = stack.gateway.url;
  const applied = await fetch(`${base}/v1/access-applications`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      app_name: name,
      description: 'Hands household jobs to humans.',
      contact_email: 'dev@example.com',
      requested_scopes: CUSTOMER_SCOPES,
    }),
  });
  if (applied.status !== 201) throw new Error(`apply: HTTP ${applied.status}`);
  const application = (await applied.json()) as { id: string; application_secret: string };
  await stack.staff.accessApplications.approve(application.id, { scopes: [...CUSTOMER_SCOPES] });
  const claimed = await fetch(`${base}/v1/access-applications/${application.id}/api-key`, {
    method: 'POST',
    headers: { 'X-Application-Secret': application.application_secret },
  });
  if (claimed.status !== 201) throw new Error(`claim: HTTP ${claimed.status}`);
  const { api_key: apiKey } = (await claimed.json()) as { api_key: string };
  return createHandoffClient({ baseUrl: base, apiKey });
}
