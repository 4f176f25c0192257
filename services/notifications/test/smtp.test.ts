// SMTP trouble, on a Mailpit of this file's own: an outage delays mail and loses none; a 4xx is
// retried; a 5xx marks the address, and later mail to it waits until a mail gets through.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { providerOps, type EventEnvelope } from '@handoff/contracts';
import { eventually, freePort, startMailpit, testServers, type Mailpit } from '@handoff/testkit';
import { MongoClient } from 'mongodb';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  handledTimes,
  mailsTo,
  messagePosted,
  milestoneApproved,
  opts,
  paymentRequestObject,
  proposalDecided,
  proposalObject,
  publishEvent,
  routed,
  sendSignIn,
  settingsOf,
  type Stack,
  startStack,
  waitForMails,
} from './support/stack.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'notify-smtp-'));
let ports: { smtpPort: number; httpPort: number };
let mailpit: Mailpit;
let stack: Stack;
let mongo: MongoClient;

const startOwnMailpit = () =>
  startMailpit({ dataDir, database: join(dataDir, 'mailpit.db'), ...ports });

beforeAll(async () => {
  ports = { smtpPort: await freePort(), httpPort: await freePort() };
  mailpit = await startOwnMailpit();
  // Short SMTP timeouts: a dead server is noticed in a second, not fifteen.
  stack = await startStack('smtp', { mailpit, env: { SMTP_TIMEOUT_MS: '2000' } });
  mongo = new MongoClient(testServers().mongoUrl);
});

afterAll(async () => {
  await stack.stop();
  await mailpit.stop();
  await mongo.close();
});

const logEntries = (providerId: string) =>
  mongo.db(stack.database).collection('mail_log').find({ provider_id: providerId }).toArray();

/**
 * Waits until `count` of a provider's mails have failed at least once, each still waiting to go
 * again (`sending`) unless told otherwise; answers them.
 */
const failing = (providerId: string, count: number, what: string, { sending = true } = {}) =>
  eventually(
    async () => {
      const failed = (await logEntries(providerId)).filter(
        (entry) => (!sending || entry.status === 'sending') && entry.failures >= 1,
      );
      return failed.length >= count ? failed : undefined;
    },
    { timeoutMs: 30_000, what },
  );

/** Runs `work` while the SMTP server refuses `who` with `code`, and stops refusing after. */
async function whileRefusing<T>(
  who: 'Sender' | 'Recipient',
  code: number,
  work: () => Promise<T>,
): Promise<T> {
  await stack.mail.chaos({ [who]: { ErrorCode: code, Probability: 100 } });
  try {
    return await work();
  } finally {
    await stack.mail.chaos({ [who]: { ErrorCode: code, Probability: 0 } });
  }
}

/** Publishes an event whose one mail the server refuses for good (550): it failed. */
const refusedForGood = (publish: () => Promise<EventEnvelope>) =>
  whileRefusing('Recipient', 550, async () => {
    const refused = await publish();
    expect((await handledTimes(stack, refused.id)).mails).toEqual(['failed']);
    return refused;
  });

const staffMarked = async () =>
  (await mongo
    .db(stack.database)
    .collection('mail_addresses')
    .findOne({ _id: stack.staff.toLowerCase() as never })) !== null;

describe('an SMTP outage', () => {
  it('delays mail and loses none: what failed is sent, once, when the server is back', async () => {
    const { provider, request } = await routed(stack, 'outage');
    mailpit.kill();
    // Answered at once, and retried in memory while the link lives.
    expect(await sendSignIn(stack, provider, `hsl_${'o'.repeat(40)}`)).toEqual({ queued: true });
    const events = [
      await messagePosted(stack, request.id, 'Anyone there?'),
      await proposalDecided(stack, request.id, provider.id, 'declined'),
      await milestoneApproved(stack, request.id, provider.id),
    ];
    // Each mail was tried and failed for now (its entry waits, marked with the failure).
    const waiting = await failing(provider.id, 3, 'three mails failing while the server is down');
    expect(waiting).toHaveLength(3);
    mailpit = await startOwnMailpit();
    const mails = await waitForMails(stack.mail, provider.email, 5, 90_000);
    for (const event of events) await handledTimes(stack, event.id);
    expect(mails.map((m) => m.Subject).sort()).toEqual(
      [
        'A new request for you: “Leaking tap”',
        'Milestone “Replace the washer” was approved',
        'The customer wrote to you about “Leaking tap”',
        'Your proposal for “Leaking tap” was declined',
        'Your sign-in link for Handoff',
      ].sort(),
    );
    expect((await logEntries(provider.id)).map((entry) => entry.status)).toEqual([
      'sent',
      'sent',
      'sent',
      'sent',
    ]);
  });

  it('tries a mail the server refuses for now (4xx) again', async () => {
    const { provider, request } = await routed(stack, 'deferred');
    await whileRefusing('Recipient', 451, async () => {
      await proposalDecided(stack, request.id, provider.id, 'declined');
      await failing(provider.id, 1, 'a refusal for now', { sending: false });
    });
    await waitForMails(stack.mail, provider.email, 2, 60_000);
    expect((await settingsOf(stack, provider.id)).email_status).toBe('ok');
  });

  it('waits, marking no address, while the server refuses our sender for good (5xx to MAIL FROM)', async () => {
    const { provider, request } = await routed(stack, 'sender');
    await whileRefusing('Sender', 553, async () => {
      await proposalDecided(stack, request.id, provider.id, 'declined');
      await failing(provider.id, 1, 'a refusal of the sender');
      expect((await settingsOf(stack, provider.id)).email_status).toBe('ok');
      expect(
        stack.lines.all.some(
          (line) =>
            line.level === 'error' &&
            String(line.msg).startsWith('SMTP server refuses our sending'),
        ),
      ).toBe(true);
    });
    const mails = await waitForMails(stack.mail, provider.email, 2, 60_000);
    expect(mails.map((m) => m.Subject)).toContain('Your proposal for “Leaking tap” was declined');
    expect((await settingsOf(stack, provider.id)).email_status).toBe('ok');
  });
});

describe('a mail refused for good (5xx)', () => {
  it('marks the address, holds later mail back, and clears it when a sign-in mail gets through', async () => {
    const { provider, request } = await routed(stack, 'bounce');
    const refused = await refusedForGood(() =>
      proposalDecided(stack, request.id, provider.id, 'declined'),
    );
    expect((await settingsOf(stack, provider.id)).email_status).toBe('bouncing');

    // Later mail to it is held back…
    const held = await milestoneApproved(stack, request.id, provider.id);
    expect((await handledTimes(stack, held.id)).mails).toEqual(['held']);
    expect(await mailsTo(stack.mail, provider.email)).toHaveLength(1);
    // …and a redelivery of the refused event sends nothing either.
    await publishEvent(
      stack,
      'proposal.declined',
      request.id,
      proposalObject(request.id, provider.id, 'declined'),
      { id: refused.id, sequence: refused.data.sequence, msgId: `${refused.id}-again` },
    );
    await handledTimes(stack, refused.id, 2);
    expect(await mailsTo(stack.mail, provider.email)).toHaveLength(1);

    // The sign-in mail still goes; accepted, it shows the address works again.
    await sendSignIn(stack, provider, `hsl_${'b'.repeat(40)}`);
    await waitForMails(stack.mail, provider.email, 2);
    await eventually(async () =>
      (await settingsOf(stack, provider.id)).email_status === 'ok' ? true : undefined,
    );
    await messagePosted(stack, request.id, 'Back?');
    await waitForMails(stack.mail, provider.email, 3);
  });

  it('leaves a provider’s new address clear', async () => {
    const { provider, request } = await routed(stack, 'moving');
    await refusedForGood(() => proposalDecided(stack, request.id, provider.id, 'declined'));
    expect((await settingsOf(stack, provider.id)).email_status).toBe('bouncing');
    const email = provider.email.replace('@', '-new@');
    await call(
      stack.nc,
      providerOps.update,
      { id: provider.id, actor: 'ops@handoff.test', patch: { email } },
      opts,
    );
    // Intake's broadcast drops the cached provider: the new address is read, and it is clear.
    await eventually(async () => {
      const settings = await settingsOf(stack, provider.id);
      return settings.email === email ? settings : undefined;
    });
    expect((await settingsOf(stack, provider.id)).email_status).toBe('ok');
    await messagePosted(stack, request.id, 'New address?');
    await waitForMails(stack.mail, email, 1);
  });
});

describe('staff’s address refused for good', () => {
  it('is marked, still tried (nothing else would clear it), and cleared by the next mail taken', async () => {
    const { request } = await routed(stack, 'staffbounce');
    await refusedForGood(() =>
      publishEvent(stack, 'payment.requested', request.id, paymentRequestObject(request.id)),
    );
    expect(await staffMarked()).toBe(true);
    const next = await publishEvent(
      stack,
      'payment.requested',
      request.id,
      paymentRequestObject(request.id),
    );
    expect((await handledTimes(stack, next.id)).mails).toEqual(['sent']);
    expect(await mailsTo(stack.mail, stack.staff)).toHaveLength(1);
    expect(await staffMarked()).toBe(false);
  });
});
