// SMTP trouble, on a Mailpit of this file's own: an outage delays mail and loses none; a 4xx is
// retried; a 5xx marks the address, and later mail to it waits until a mail gets through.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { notificationOps, providerOps } from '@handoff/contracts';
import { eventually, freePort, startMailpit, testServers, type Mailpit } from '@handoff/testkit';
import { MongoClient } from 'mongodb';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createProvider,
  handledTimes,
  mailsTo,
  messageObject,
  milestoneObject,
  opts,
  paymentRequestObject,
  proposalObject,
  publishEvent,
  routedRequest,
  startStack,
  waitForMails,
  type Stack,
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

const settingsOf = (providerId: string) =>
  call(stack.nc, notificationOps.settings, { provider_id: providerId }, opts);

/** A provider with a request routed to it, its routing mail already in. */
async function routed(label: string) {
  const provider = await createProvider(stack, label);
  const request = await routedRequest(stack, [provider.id]);
  await waitForMails(stack.mail, provider.email, 1);
  return { provider, request };
}

const signIn = (provider: { id: string; email: string; name: string }, token: string) =>
  call(
    stack.nc,
    notificationOps.sendSignIn,
    {
      provider_id: provider.id,
      to: provider.email,
      name: provider.name,
      token,
      expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
    },
    opts,
  );

const staffMarked = async () =>
  (await mongo
    .db(stack.database)
    .collection('mail_addresses')
    .findOne({ _id: stack.staff.toLowerCase() as never })) !== null;

describe('an SMTP outage', () => {
  it('delays mail and loses none: what failed is sent, once, when the server is back', async () => {
    const { provider, request } = await routed('outage');
    mailpit.kill();
    // Answered at once, and retried in memory while the link lives.
    expect(await signIn(provider, `hsl_${'o'.repeat(40)}`)).toEqual({ queued: true });
    const events = [
      await publishEvent(
        stack,
        'message.created',
        request.id,
        messageObject(request.id, 'customer', 'Anyone there?'),
      ),
      await publishEvent(
        stack,
        'proposal.declined',
        request.id,
        proposalObject(request.id, provider.id, 'declined'),
      ),
      await publishEvent(stack, 'milestone.approved', request.id, {
        ...milestoneObject(request.id, provider.id),
        status: 'approved',
        approved_by: 'customer',
      }),
    ];
    // Each mail was tried and failed for now (its entry waits, marked with the failure).
    await eventually(
      async () => {
        const waiting = (await logEntries(provider.id)).filter(
          (entry) => entry.status === 'sending' && entry.failures >= 1,
        );
        return waiting.length === 3 ? waiting : undefined;
      },
      { timeoutMs: 30_000, what: 'three mails failing while the server is down' },
    );
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
    const { provider, request } = await routed('deferred');
    await stack.mail.chaos({ Recipient: { ErrorCode: 451, Probability: 100 } });
    try {
      await publishEvent(
        stack,
        'proposal.declined',
        request.id,
        proposalObject(request.id, provider.id, 'declined'),
      );
      await eventually(
        async () =>
          (await logEntries(provider.id)).some((entry) => entry.failures >= 1) ? true : undefined,
        { timeoutMs: 30_000, what: 'a refusal for now' },
      );
    } finally {
      await stack.mail.chaos({ Recipient: { ErrorCode: 451, Probability: 0 } });
    }
    await waitForMails(stack.mail, provider.email, 2, 60_000);
    expect((await settingsOf(provider.id)).email_status).toBe('ok');
  });

  it('waits, marking no address, while the server refuses our sender for good (5xx to MAIL FROM)', async () => {
    const { provider, request } = await routed('sender');
    await stack.mail.chaos({ Sender: { ErrorCode: 553, Probability: 100 } });
    try {
      await publishEvent(
        stack,
        'proposal.declined',
        request.id,
        proposalObject(request.id, provider.id, 'declined'),
      );
      await eventually(
        async () =>
          (await logEntries(provider.id)).some(
            (entry) => entry.status === 'sending' && entry.failures >= 1,
          )
            ? true
            : undefined,
        { timeoutMs: 30_000, what: 'a refusal of the sender' },
      );
      expect((await settingsOf(provider.id)).email_status).toBe('ok');
      expect(
        stack.lines.all.some(
          (line) =>
            line.level === 'error' &&
            String(line.msg).startsWith('SMTP server refuses our sending'),
        ),
      ).toBe(true);
    } finally {
      await stack.mail.chaos({ Sender: { ErrorCode: 553, Probability: 0 } });
    }
    const mails = await waitForMails(stack.mail, provider.email, 2, 60_000);
    expect(mails.map((m) => m.Subject)).toContain('Your proposal for “Leaking tap” was declined');
    expect((await settingsOf(provider.id)).email_status).toBe('ok');
  });
});

describe('a mail refused for good (5xx)', () => {
  it('marks the address, holds later mail back, and clears it when a sign-in mail gets through', async () => {
    const { provider, request } = await routed('bounce');
    await stack.mail.chaos({ Recipient: { ErrorCode: 550, Probability: 100 } });
    let refused;
    try {
      refused = await publishEvent(
        stack,
        'proposal.declined',
        request.id,
        proposalObject(request.id, provider.id, 'declined'),
      );
      expect((await handledTimes(stack, refused.id)).mails).toEqual(['failed']);
    } finally {
      await stack.mail.chaos({ Recipient: { ErrorCode: 550, Probability: 0 } });
    }
    expect((await settingsOf(provider.id)).email_status).toBe('bouncing');

    // Later mail to it is held back…
    const held = await publishEvent(stack, 'milestone.approved', request.id, {
      ...milestoneObject(request.id, provider.id),
      status: 'approved',
      approved_by: 'customer',
    });
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
    await signIn(provider, `hsl_${'b'.repeat(40)}`);
    await waitForMails(stack.mail, provider.email, 2);
    await eventually(async () =>
      (await settingsOf(provider.id)).email_status === 'ok' ? true : undefined,
    );
    await publishEvent(
      stack,
      'message.created',
      request.id,
      messageObject(request.id, 'customer', 'Back?'),
    );
    await waitForMails(stack.mail, provider.email, 3);
  });

  it('leaves a provider’s new address clear', async () => {
    const { provider, request } = await routed('moving');
    await stack.mail.chaos({ Recipient: { ErrorCode: 550, Probability: 100 } });
    try {
      const refused = await publishEvent(
        stack,
        'proposal.declined',
        request.id,
        proposalObject(request.id, provider.id, 'declined'),
      );
      expect((await handledTimes(stack, refused.id)).mails).toEqual(['failed']);
    } finally {
      await stack.mail.chaos({ Recipient: { ErrorCode: 550, Probability: 0 } });
    }
    expect((await settingsOf(provider.id)).email_status).toBe('bouncing');
    const email = provider.email.replace('@', '-new@');
    await call(
      stack.nc,
      providerOps.update,
      { id: provider.id, actor: 'ops@handoff.test', patch: { email } },
      opts,
    );
    // Intake's broadcast drops the cached provider: the new address is read, and it is clear.
    await eventually(async () => {
      const settings = await settingsOf(provider.id);
      return settings.email === email ? settings : undefined;
    });
    expect((await settingsOf(provider.id)).email_status).toBe('ok');
    await publishEvent(
      stack,
      'message.created',
      request.id,
      messageObject(request.id, 'customer', 'New address?'),
    );
    await waitForMails(stack.mail, email, 1);
  });
});

describe('staff’s address refused for good', () => {
  it('is marked, still tried (nothing else would clear it), and cleared by the next mail taken', async () => {
    const { request } = await routed('staffbounce');
    await stack.mail.chaos({ Recipient: { ErrorCode: 550, Probability: 100 } });
    try {
      const refused = await publishEvent(
        stack,
        'payment.requested',
        request.id,
        paymentRequestObject(request.id),
      );
      expect((await handledTimes(stack, refused.id)).mails).toEqual(['failed']);
    } finally {
      await stack.mail.chaos({ Recipient: { ErrorCode: 550, Probability: 0 } });
    }
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
