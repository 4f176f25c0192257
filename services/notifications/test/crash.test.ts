// The service killed mid-send, as its own process: after a restart each mail is there once, and a
// mail the SMTP server had already taken when the process died goes again with the same
// Message-ID (the bound documented on `deliver` in src/handlers/mail.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootstrap as startIntake } from '@handoff/intake';
import {
  crashableService,
  eventually,
  exited,
  freePort,
  mailpitClient,
  serviceEnv,
  startMailpit,
  uniqueDatabase,
  type Mailpit,
  type MailpitClient,
} from '@handoff/testkit';
import type { NatsConnection } from '@nats-io/transport-node';
import type { MongoClient } from 'mongodb';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProvider, mailsTo, routedRequest } from './support/stack.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const database = uniqueDatabase('ncrash');
const notifications = crashableService({
  service: 'notifications',
  main: MAIN,
  env: () => ({ ...serviceEnv('notifications', database), SMTP_URL: mailpit.smtpUrl }),
});
let mailpit: Mailpit;
let mail: MailpitClient;
let intake: Awaited<ReturnType<typeof startIntake>>;
let nc: NatsConnection;
let mongo: MongoClient;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'notify-crash-'));
  mailpit = await startMailpit({
    dataDir,
    smtpPort: await freePort(),
    httpPort: await freePort(),
  });
  mail = mailpitClient(mailpit.url);
  intake = await startIntake({ env: serviceEnv('intake', uniqueDatabase('ncrashi')) });
  ({ nc, mongo } = await notifications.connect());
});

afterAll(async () => {
  await notifications.close();
  await intake.stop();
  await mailpit.stop();
});

/** The notifications service as its own process, as in production, optionally with a fault armed. */
const startNotifications = (fault?: string) => notifications.start(nc, fault);

const accepted = async () => (await mail.info()).RuntimeStats.SMTPAccepted;

/** The routing mail's log entry of a provider. */
const entryOf = (providerId: string) =>
  mongo.db(database).collection('mail_log').findOne({ provider_id: providerId });

/** Routes a new request to a new provider: its `request.updated` calls for one mail. */
async function routeOne(label: string) {
  const provider = await createProvider({ nc }, label);
  await routedRequest({ nc }, [provider.id]);
  return provider;
}

/**
 * A redelivery comes after the event consumer's ack wait (its first backoff step, 10 s); the
 * margin is for a busy machine.
 */
const REDELIVERED_WITHIN_MS = 60_000;

describe('a crash mid-send', () => {
  it('before the hand-over: after a restart the mail goes once', async () => {
    const before = await accepted();
    const child = await startNotifications('crash-before-smtp');
    const provider = await routeOne('before');
    expect(await exited(child)).toBe(86);
    expect((await entryOf(provider.id))?.status).toBe('sending');
    expect(await accepted()).toBe(before);

    const restarted = await startNotifications();
    await eventually(
      async () => ((await entryOf(provider.id))?.status === 'sent' ? true : undefined),
      { timeoutMs: REDELIVERED_WITHIN_MS, what: 'the mail sent after the restart' },
    );
    expect(await mailsTo(mail, provider.email)).toHaveLength(1);
    expect(await accepted()).toBe(before + 1);
    await notifications.stop(restarted);
  });

  it('after the server took the mail: the resend carries the same Message-ID, and there is no third', async () => {
    const before = await accepted();
    const child = await startNotifications('crash-after-smtp-accept');
    const provider = await routeOne('after');
    expect(await exited(child)).toBe(86);
    expect(await accepted()).toBe(before + 1);
    const entry = await entryOf(provider.id);
    expect(entry?.status).toBe('sending');

    const restarted = await startNotifications();
    await eventually(
      async () => ((await entryOf(provider.id))?.status === 'sent' ? true : undefined),
      { timeoutMs: REDELIVERED_WITHIN_MS, what: 'the mail marked sent after the restart' },
    );
    expect(await accepted()).toBe(before + 2);
    const copies = await mailsTo(mail, provider.email);
    expect(copies.length).toBeGreaterThanOrEqual(1);
    for (const copy of copies) expect(`<${copy.MessageID}>`).toBe(entry?.message_id);
    expect(String(entry?.message_id)).toMatch(/^<evt_[0-9a-z]+\.request_routed\.[0-9a-f]{16}@/);
    await notifications.stop(restarted);
  });
});
