import { bootstrap as conversation } from '@handoff/conversation';
import { bootstrap as gateway, type RunningGateway } from '@handoff/gateway';
import { bootstrap as intake } from '@handoff/intake';
import { bootstrap as milestones } from '@handoff/milestones';
import { bootstrap as notifications } from '@handoff/notifications';
import { bootstrap as payments } from '@handoff/payments';
import { natsEnv, serviceEnv, uniqueDatabase } from '@handoff/testkit';
import { bootstrap as dispatcher } from '@handoff/webhook-dispatcher';
import { SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';

type Env = Record<string, string>;

/**
 * The whole backend a web app acts on, in this process against the worker's real NATS,
 * MongoDB-wire and Mailpit servers: intake, conversation, payments (manual provider),
 * milestones, the webhook dispatcher (the event feed), a gateway that serves the app's build,
 * and notifications, whose mails link to that gateway.
 */
export interface WebStack {
  gateway: RunningGateway;
  /** A staff JWT (HS256, an hour) the gateway accepts. */
  staff: string;
  stop(): Promise<void>;
}

export interface WebStackOptions {
  /** The gateway's settings beyond the defaults: the build it serves (`CONSOLE_DIR`, …). */
  gateway: Env;
  /** The webhook dispatcher's settings beyond the defaults. */
  dispatcher?: Env;
}

export async function startWebStack(label: string, options: WebStackOptions): Promise<WebStack> {
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
    // Receivers in the test process listen on loopback, hence private targets.
    running.push(
      await dispatcher({
        env: {
          ...env('webhook-dispatcher'),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
          ...options.dispatcher,
        },
      }),
    );
    const front = await gateway({
      env: {
        ...natsEnv('gateway'),
        PORT: '0',
        STAFF_JWT_SECRET: secret,
        PUBLIC_RATE_LIMIT_PER_MINUTE: '10000',
        AUTH_FAILURE_LIMIT_PER_MINUTE: '10000',
        RATE_LIMIT_PER_MINUTE: '10000',
        LOG_LEVEL: 'silent',
        ...options.gateway,
      },
    });
    running.push(front);
    // Started after the gateway, whose address (a free port) its mails link to.
    running.push(await notifications({ env: { ...env('notifications'), PUBLIC_URL: front.url } }));
    return { gateway: front, staff: await staffToken(secret), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function staffToken(secret: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: 'ops@handoff.test', roles: ['staff'] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(secret));
}
