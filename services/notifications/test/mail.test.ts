import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import {
  notificationOps,
  PROVIDER_MAIL_KINDS,
  providerOps,
  requestOps,
  type MailKind,
} from '@handoff/contracts';
import { eventually, type MailMessage } from '@handoff/testkit';
import { MongoClient } from 'mongodb';
import { testServers } from '@handoff/testkit';
import { bootstrap } from '../src/bootstrap.ts';
import {
  capturedLogger,
  createProvider,
  createRequest,
  disputeObject,
  handledTimes,
  linksIn,
  mailAbout,
  mailsTo,
  messageObject,
  messagePosted,
  milestoneApproved,
  milestoneObject,
  nextEvent,
  opts,
  paymentObject,
  paymentRequestObject,
  proposalDecided,
  PUBLIC_URL,
  publishEvent,
  routed,
  routedRequest,
  sendSignIn,
  setKinds,
  settingsOf,
  type Stack,
  startStack,
  submitApplication,
  unreadOf,
  waitForMails,
} from './support/stack.ts';

let stack: Stack;
let mongo: MongoClient;

beforeAll(async () => {
  stack = await startStack('mail');
  mongo = new MongoClient(testServers().mongoUrl);
});

afterAll(async () => {
  await stack.stop();
  await mongo.close();
});

/** The words a person reads: the text part without its links. */
const words = (mail: MailMessage) => mail.Text.replace(/https?:\/\/\S+/g, '');

/** What every provider mail has: both parts, one workspace link, its kind's unsubscribe link. */
async function expectProviderMail(mail: MailMessage, workspaceLink: string) {
  expect(mail.Text.length).toBeGreaterThan(0);
  expect(mail.HTML).toContain('<html');
  const links = linksIn(mail.Text);
  const unsubscribe = links.filter((link) =>
    link.startsWith(`${PUBLIC_URL}/workspace/unsubscribe#token=`),
  );
  expect(unsubscribe).toHaveLength(1);
  expect(links.filter((link) => !unsubscribe.includes(link))).toEqual([workspaceLink]);
  const hrefs = [...mail.HTML.matchAll(/href="([^"]+)"/g)].map((m) => m[1]?.replace(/&amp;/g, '&'));
  expect(hrefs.sort()).toEqual([workspaceLink, unsubscribe[0]].sort());
  // Plain words: no ids, no API paths, no JSON in what a person reads.
  expect(words(mail)).not.toMatch(/\b(req|prv|evt|msg|prp|mst|pay|prq|dsp|job)_[0-9a-z]/);
  expect(words(mail)).not.toMatch(/\/v1\/|[{}]/);
  const headers = await stack.mail.headers(mail.ID);
  expect(headers['List-Unsubscribe']?.[0]).toBe(`<${unsubscribe[0]}>`);
  expect(headers['X-Handoff-Event']?.[0]).toMatch(/^evt_/);
  expect(mail.MessageID).toContain(headers['X-Handoff-Event']?.[0]);
  return { unsubscribe: unsubscribe[0] ?? '', headers };
}

async function expectStaffMail(mail: MailMessage) {
  expect(mail.HTML).toContain('<html');
  expect(linksIn(mail.Text)).toEqual([`${PUBLIC_URL}/console`]);
  expect(words(mail)).not.toMatch(/\b(req|prv|evt|app|prq|dsp)_[0-9a-z]/);
  const headers = await stack.mail.headers(mail.ID);
  expect(headers['List-Unsubscribe']).toBeUndefined();
  expect(headers['X-Handoff-Event']?.[0]).toMatch(/^evt_/);
}

const requestLink = (id: string) => `${PUBLIC_URL}/workspace/requests/${id}`;

/** The mail log's entries of one provider and kind (the test reads the service's own store). */
const logged = (providerId: string, kind: MailKind) =>
  mongo.db(stack.database).collection('mail_log').find({ provider_id: providerId, kind }).toArray();

describe('mail to providers', () => {
  it('tells a provider once of a request routed to it, with text and HTML, one workspace link and an unsubscribe link', async () => {
    const provider = await createProvider(stack, 'routed');
    const updated = nextEvent(stack, 'request.updated');
    const request = await routedRequest(stack, [provider.id]);
    const routing = await updated.event;
    const [mail] = await waitForMails(stack.mail, provider.email);
    if (!mail) throw new Error('no mail');
    expect(mail.Subject).toBe('A new request for you: “Leaking tap”');
    expect(mail.Text).toContain(`Hello ${provider.name},`);
    expect(mail.Text).toContain('The tap in the kitchen drips all night.');
    const { headers } = await expectProviderMail(mail, requestLink(request.id));
    expect(headers['X-Handoff-Event']?.[0]).toBe(routing.id);

    // Another change of the same request (its routing again) routes nothing new: no second mail.
    const again = nextEvent(stack, 'request.updated', request.id);
    await call(
      stack.nc,
      requestOps.update,
      {
        id: request.id,
        patch: { routing: { mode: 'direct', provider_ids: [provider.id] } },
        actor: 'ops@handoff.test',
      },
      opts,
    );
    await handledTimes(stack, (await again.event).id);
    expect(await mailsTo(stack.mail, provider.email)).toHaveLength(1);
  });

  it('tells a provider of an offer the rules made it, and by when to accept or decline it', async () => {
    // A category of its own: the rules can offer the request to this provider only.
    const provider = await createProvider(stack, 'offered', ['glazing']);
    const request = await createRequest(stack, { category: 'glazing', subject: 'Leaking tap' });
    const [mail] = await waitForMails(stack.mail, provider.email);
    if (!mail) throw new Error('no mail');
    expect(mail.Subject).toBe('A new request for you: “Leaking tap”');
    expect(mail.Text).toContain('A customer’s request is offered to you (glazing).');
    expect(mail.Text).toMatch(/accept or decline it in \d+ (minutes|hours?), on /);
    expect(mail.Text).toContain('if you do not answer by then, it goes to another provider.');
    await expectProviderMail(mail, requestLink(request.id));
  });

  it('mails a message from the customer when it starts an unread run, and counts the run', async () => {
    const { provider, request } = await routed(stack, 'messages');

    const first = await messagePosted(stack, request.id, 'Can you come on Tuesday?');
    const mails = await waitForMails(stack.mail, provider.email, 2);
    const mail = mails.find((m) => m.Subject.startsWith('The customer wrote'));
    if (!mail) throw new Error('no message mail');
    expect(mail.Subject).toBe('The customer wrote to you about “Leaking tap”');
    expect(mail.Text).toContain('Can you come on Tuesday?');
    const { headers } = await expectProviderMail(mail, requestLink(request.id));
    expect(headers['X-Handoff-Event']?.[0]).toBe(first.id);

    // A second message before the provider read the first: counted, not mailed.
    const second = await messagePosted(stack, request.id, 'Or Wednesday?', 'agent');
    await handledTimes(stack, second.id);
    // The provider's own message is neither counted nor mailed.
    const own = await messagePosted(stack, request.id, 'Tuesday works.', 'provider');
    await handledTimes(stack, own.id);
    expect(await mailsTo(stack.mail, provider.email)).toHaveLength(2);
    const unread = await unreadOf(stack, provider.id, [request.id, 'req_unknown']);
    expect(unread).toEqual({ requests: { [request.id]: 2, req_unknown: 0 } });

    // Read: back to 0, and the next message starts a new run, which is mailed.
    expect(
      await call(
        stack.nc,
        notificationOps.markRead,
        { provider_id: provider.id, request_id: request.id },
        opts,
      ),
    ).toEqual({ object: 'request_read', request_id: request.id, unread_messages: 0 });
    expect((await unreadOf(stack, provider.id, [request.id])).requests[request.id]).toBe(0);
    await messagePosted(stack, request.id, 'See you then.');
    await waitForMails(stack.mail, provider.email, 3);
    expect((await unreadOf(stack, provider.id, [request.id])).requests[request.id]).toBe(1);
  });

  it('sends one mail for an event delivered twice, and counts its message once', async () => {
    const { provider, request } = await routed(stack, 'twice');
    const object = messageObject(request.id, 'customer', 'Hello twice');
    const event = await publishEvent(stack, 'message.created', request.id, object);
    // The same event again under another Nats-Msg-Id: past the stream's duplicate window.
    await publishEvent(stack, 'message.created', request.id, object, {
      id: event.id,
      sequence: event.data.sequence,
      msgId: `${event.id}-again`,
    });
    await handledTimes(stack, event.id, 2);
    expect(await mailsTo(stack.mail, provider.email)).toHaveLength(2);
    const unread = await unreadOf(stack, provider.id, [request.id]);
    expect(unread.requests[request.id]).toBe(1);
    expect(await logged(provider.id, 'message_received')).toHaveLength(1);
  });

  it('tells a provider its proposal was accepted or declined', async () => {
    const { provider, request } = await routed(stack, 'proposal');
    await proposalDecided(stack, request.id, provider.id, 'declined', {
      decline_reason: 'Too expensive <b>',
    });
    const declined = await mailAbout(stack.mail, provider.email, 2, 'declined');
    expect(declined.Subject).toBe('Your proposal for “Leaking tap” was declined');
    expect(declined.Text).toContain('€120.00');
    expect(declined.HTML).toContain('Too expensive &lt;b&gt;');
    await expectProviderMail(declined, requestLink(request.id));

    await proposalDecided(stack, request.id, provider.id, 'accepted');
    const accepted = await mailAbout(stack.mail, provider.email, 3, 'accepted');
    expect(accepted.Subject).toBe('Your proposal for “Leaking tap” was accepted');
    await expectProviderMail(accepted, requestLink(request.id));
  });

  it('tells a provider of a change request once per revision, with its deadline and time left, and of an approval', async () => {
    const { provider, request } = await routed(stack, 'review');
    const deadline = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000 + 60_000);
    const milestone = milestoneObject(request.id, provider.id, {
      status: 'changes_requested',
      change_request_reason: 'The tap still drips.',
      deadline_at: deadline.toISOString(),
    });
    const changes = await publishEvent(stack, 'milestone.updated', request.id, milestone);
    // Found by its subject: the routing mail may carry the same `Created` time.
    const mail = await mailAbout(stack.mail, provider.email, 2, 'Changes asked for');
    expect(mail.Subject).toBe('Changes asked for on “Replace the washer”');
    expect(mail.Text).toContain('The tap still drips.');
    expect(mail.Text).toMatch(
      /Submit it again in 3 days, on (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} at \d\d:\d\d UTC\./,
    );
    await expectProviderMail(mail, requestLink(request.id));
    expect((await stack.mail.headers(mail.ID))['X-Handoff-Event']?.[0]).toBe(changes.id);

    // Progress reported while changes are asked for: the same revision, no second mail.
    const progress = await publishEvent(stack, 'milestone.updated', request.id, {
      ...milestone,
      progress: 50,
    });
    await handledTimes(stack, progress.id);
    expect(await mailsTo(stack.mail, provider.email)).toHaveLength(2);

    await publishEvent(stack, 'milestone.approved', request.id, {
      ...milestone,
      status: 'approved',
      approved_by: 'customer',
      deadline_at: null,
    });
    const approved = await mailAbout(stack.mail, provider.email, 3, 'approved');
    expect(approved.Subject).toBe('Milestone “Replace the washer” was approved');
    await expectProviderMail(approved, requestLink(request.id));
  });

  it('tells the engaged provider of a completed payment', async () => {
    const { provider, request } = await routed(stack, 'payment');
    // The acceptance engages the provider (intake's engagement consumer records it).
    await proposalDecided(stack, request.id, provider.id, 'accepted');
    await eventually(async () => {
      const now = await call(stack.nc, requestOps.getAsStaff, { id: request.id }, opts);
      return now.engaged_provider_id === provider.id ? true : undefined;
    });
    await publishEvent(stack, 'payment.completed', request.id, paymentObject(request.id));
    const mail = await mailAbout(stack.mail, provider.email, 3, 'Payment completed');
    expect(mail.Subject).toBe('Payment completed: €60.00 for “Leaking tap”');
    await expectProviderMail(mail, requestLink(request.id));
  });

  it('mails no provider that is suspended', async () => {
    const { provider, request } = await routed(stack, 'suspended');
    await call(
      stack.nc,
      providerOps.update,
      { id: provider.id, actor: 'ops@handoff.test', patch: { status: 'suspended' } },
      opts,
    );
    const event = await messagePosted(stack, request.id, 'Are you there?');
    expect((await handledTimes(stack, event.id)).mails).toEqual(['skipped']);
    expect(await mailsTo(stack.mail, provider.email)).toHaveLength(1);
  });
});

describe('mail to staff', () => {
  it('tells staff of a marketplace review, a payment request, an escalated dispute and an access application', async () => {
    const provider = await createProvider(stack, 'staffq');
    const review = await createRequest(stack, {
      subject: 'Paint the fence',
      marketplace_opt_in: true,
      category: 'painting',
    });
    expect(review.marketplace.review).toBe('pending_review');
    await waitForMails(stack.mail, stack.staff, 1);
    await publishEvent(stack, 'payment.requested', review.id, paymentRequestObject(review.id));
    await waitForMails(stack.mail, stack.staff, 2);
    const dispute = disputeObject(review.id, provider.id, { status: 'under_review' });
    await publishEvent(stack, 'dispute.updated', review.id, dispute);
    await waitForMails(stack.mail, stack.staff, 3);
    // A comment while under review: the same escalation, no second mail.
    const comment = await publishEvent(stack, 'dispute.updated', review.id, {
      ...dispute,
      comments: [
        { author_role: 'staff', message: 'Looking', created_at: new Date().toISOString() },
      ],
    });
    await handledTimes(stack, comment.id);
    await submitApplication(stack, 'Plumb Bot');
    const mails = await waitForMails(stack.mail, stack.staff, 4);
    expect(mails.map((m) => m.Subject).sort()).toEqual(
      [
        'A request waits for marketplace review: “Paint the fence”',
        'A payment of €60.00 waits for approval',
        'A dispute waits for staff review: “Paint the fence”',
        'An access application waits: “Plumb Bot”',
      ].sort(),
    );
    for (const mail of mails) await expectStaffMail(mail);
    expect(await mailsTo(stack.mail, stack.staff)).toHaveLength(4);
  });
});

describe('settings', () => {
  it('has every kind on at first; a kind turned off is not mailed while the others are', async () => {
    const provider = await createProvider(stack, 'settings');
    const initial = await settingsOf(stack, provider.id);
    expect(initial).toEqual({
      object: 'notification_settings',
      email: provider.email,
      email_status: 'ok',
      kinds: Object.fromEntries(PROVIDER_MAIL_KINDS.map((kind) => [kind, true])),
    });
    const updated = await setKinds(stack, provider.id, { message_received: false });
    expect(updated.kinds).toMatchObject({ message_received: false, request_routed: true });

    const request = await routedRequest(stack, [provider.id]);
    await waitForMails(stack.mail, provider.email, 1);
    const message = await messagePosted(stack, request.id, 'Off?');
    expect((await handledTimes(stack, message.id)).mails).toEqual(['skipped']);
    await proposalDecided(stack, request.id, provider.id, 'declined');
    const mails = await waitForMails(stack.mail, provider.email, 2);
    expect(mails.map((m) => m.Subject)).toEqual([
      'A new request for you: “Leaking tap”',
      'Your proposal for “Leaking tap” was declined',
    ]);
  });

  it('turns off the one kind an unsubscribe link names, and refuses a link that does not verify', async () => {
    const provider = await createProvider(stack, 'unsub');
    const request = await routedRequest(stack, [provider.id]);
    const [mail] = await waitForMails(stack.mail, provider.email, 1);
    if (!mail) throw new Error('no mail');
    const link = linksIn(mail.Text).find((l) => l.includes('/workspace/unsubscribe#token='));
    const token = decodeURIComponent(link?.split('#token=')[1] ?? '');
    expect(await call(stack.nc, notificationOps.unsubscribe, { token }, opts)).toEqual({
      object: 'unsubscribe',
      kind: 'request_routed',
      description: 'A request is sent to you',
      subscribed: false,
    });
    const settings = await settingsOf(stack, provider.id);
    expect(settings.kinds).toEqual({
      ...Object.fromEntries(PROVIDER_MAIL_KINDS.map((kind) => [kind, true])),
      request_routed: false,
    });
    // A token for another kind or provider cannot be made from it.
    for (const bad of [
      `${token}x`,
      token.replace(/^[^.]+/, 'cHJ2X290aGVyOnJlcXVlc3Rfcm91dGVk'),
      'nonsense',
    ]) {
      await expect(
        call(stack.nc, notificationOps.unsubscribe, { token: bad }, opts),
      ).rejects.toMatchObject({
        code: 'unsubscribe_link_invalid',
      });
    }
    // Still subscribed to the others.
    await messagePosted(stack, request.id, 'Still here');
    await waitForMails(stack.mail, provider.email, 2);
  });

  it('holds to a changed setting on every replica at once, each of which kept the provider', async () => {
    const second = await bootstrap({ env: stack.env, logger: capturedLogger({ all: [] }) });
    try {
      const { provider, request } = await routed(stack, 'replicas');
      // Both replicas take events of the shared consumer; enough of them that each one looks
      // the provider up (and keeps it).
      for (let i = 0; i < 8; i += 1) {
        await proposalDecided(stack, request.id, provider.id, 'declined');
      }
      await waitForMails(stack.mail, provider.email, 9);
      await setKinds(stack, provider.id, { proposal_decided: false });
      for (let i = 0; i < 8; i += 1) {
        await proposalDecided(stack, request.id, provider.id, 'declined');
      }
      // Another kind, still on, after them: once its mail is in, the declines were handled.
      await milestoneApproved(stack, request.id, provider.id);
      const mails = await waitForMails(stack.mail, provider.email, 10);
      expect(mails.filter((mail) => mail.Subject.includes('approved'))).toHaveLength(1);
      // A decline still at work when the acceptance's mail came would show by now.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await mailsTo(stack.mail, provider.email)).length).toBe(10);
    } finally {
      await second.stop();
    }
  });

  it('answers provider_not_found for a provider intake does not know', async () => {
    await expect(
      call(stack.nc, notificationOps.settings, { provider_id: 'prv_unknown' }, opts),
    ).rejects.toMatchObject({ code: 'provider_not_found' });
    await expect(
      call(
        stack.nc,
        notificationOps.updateSettings,
        { provider_id: 'prv_unknown', patch: { kinds: { payment_completed: false } } },
        opts,
      ),
    ).rejects.toMatchObject({ code: 'provider_not_found' });
  });
});

describe('inbox', () => {
  it('refuses to mark read what is no request id, and counts nothing for it', async () => {
    await expect(
      call(stack.nc, notificationOps.markRead, { provider_id: 'prv_x', request_id: 'a.b$c' }, opts),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await unreadOf(stack, 'prv_x', ['a.b$c'])).toEqual({ requests: { 'a.b$c': 0 } });
  });
});

describe('sign-in mail', () => {
  it('answers at once and mails the link in the fragment, with no unsubscribe; the token is neither stored nor logged', async () => {
    const provider = await createProvider(stack, 'signin');
    const token = `hsl_${'k'.repeat(40)}`;
    // It goes whatever the settings say.
    await call(
      stack.nc,
      notificationOps.updateSettings,
      {
        provider_id: provider.id,
        patch: { kinds: Object.fromEntries(PROVIDER_MAIL_KINDS.map((k) => [k, false])) },
      },
      opts,
    );
    expect(await sendSignIn(stack, provider, token)).toEqual({ queued: true });
    const [mail] = await waitForMails(stack.mail, provider.email, 1);
    if (!mail) throw new Error('no mail');
    expect(mail.Subject).toBe('Your sign-in link for Handoff');
    expect(linksIn(mail.Text)).toEqual([`${PUBLIC_URL}/workspace/sign-in#token=${token}`]);
    expect(mail.Text).toMatch(/expires in 1[45] minutes/);
    const headers = await stack.mail.headers(mail.ID);
    expect(headers['List-Unsubscribe']).toBeUndefined();
    expect(JSON.stringify(stack.lines.all)).not.toContain(token);
    for (const name of await mongo.db(stack.database).listCollections().toArray()) {
      const docs = await mongo.db(stack.database).collection(name.name).find({}).toArray();
      expect(JSON.stringify(docs)).not.toContain(token);
    }
  });
});

describe('logs', () => {
  it('never carry a mail body', () => {
    const all = JSON.stringify(stack.lines.all);
    expect(all).not.toContain('Can you come on Tuesday?');
    expect(all).not.toContain('The tap in the kitchen drips');
  });
});
