// The providers' workspace through the gateway: sign-in by a link mailed through the real
// notifications service to the worker's Mailpit, the session cookie, CSRF, the ends of a session,
// the limits on sign-in asks, and the provider API the workspace adds (unread counts, the
// conversation, the long-poll, payments).
import { beforeAll, describe, expect, it } from '@jest/globals';
import { newId, WORKSPACE_LIMITS } from '@handoff/contracts';
import { eventually, testMail } from '@handoff/testkit';
import { createHash, randomBytes } from 'node:crypto';
import { address, http, type Answer, type Call, type Onboarded } from './support/http.ts';
import { PROPOSAL, useStack, type ProviderAccount } from './support/stack.ts';

const stack = useStack('gw_workspace');
const mail = testMail();
let agent: Onboarded;

beforeAll(async () => {
  agent = await stack.agentOf();
});

/** An address no other test of this run writes to. */
const uniqueEmail = (who = 'provider') =>
  `${who}-${randomBytes(5).toString('hex')}@workspace.example`;

/** A provider created by staff with an address of its own (and a key, for the API's side). */
async function provider(
  categories = ['home-services'],
): Promise<ProviderAccount & { email: string }> {
  const email = uniqueEmail();
  const created = await stack.asStaff('/providers', {
    body: { name: `Grace ${randomBytes(2).toString('hex')}`, email, categories },
  });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const issued = await stack.asStaff(`/providers/${id}/keys`, { method: 'POST' });
  return {
    id,
    name: String(created.body.name),
    key: String(issued.body.api_key),
    keyId: String(issued.body.key_id),
    email,
  };
}

const askForLink = (email: string, from = address()) =>
  http(stack.gateway, '/v1/workspace/sign-in', { body: { email }, from });

/** The mails to an address, newest first. */
const mailsTo = async (email: string) => (await mail.search(`to:"${email}"`)).messages;

/** The token of the newest sign-in link mailed to `email` after `seen` mails (from its text part). */
async function linkMailedTo(email: string, seen = 0): Promise<string> {
  const [newest] = await eventually(
    async () => {
      const mails = await mailsTo(email);
      return mails.length > seen ? mails : undefined;
    },
    { timeoutMs: 30_000, what: `a sign-in mail to ${email}` },
  );
  const message = await mail.message(String(newest?.ID));
  const token = /\/workspace\/sign-in#token=(hsl_[0-9A-Za-z]+)/.exec(message.Text)?.[1];
  if (!token) throw new Error(`no sign-in link in the mail's text:\n${message.Text}`);
  return token;
}

interface Session {
  cookie: string;
  csrf: string;
  id: string;
  answer: Answer;
}

/** Exchanges a link's token for a session: the cookie the gateway set, and the CSRF token. */
async function signIn(token: string, call: Call = {}): Promise<Session> {
  const answer = await http(stack.gateway, '/v1/workspace/session', {
    body: { token },
    ...call,
  });
  expect(answer.status).toBe(201);
  const setCookie = answer.headers.get('set-cookie') ?? '';
  const cookie = /^([^;]+)/.exec(setCookie)?.[1] ?? '';
  return { cookie, csrf: String(answer.body.csrf_token), id: String(answer.body.id), answer };
}

/** A provider (a new one unless `who`) signed in through its mail, exchanging the link with `call`. */
async function signedIn(who?: ProviderAccount & { email: string }, call: Call = {}) {
  const account = who ?? (await provider());
  const seen = (await mailsTo(account.email)).length;
  expect((await askForLink(account.email)).status).toBe(202);
  const session = await signIn(await linkMailedTo(account.email, seen), call);
  return { account, session, setCookie: session.answer.headers.get('set-cookie') ?? '' };
}

/** A call as the signed-in provider: the cookie, and the CSRF token on a change. */
const asSession = (session: Session, path: string, call: Call = {}, csrf = true) =>
  http(stack.gateway, path, {
    ...call,
    headers: {
      Cookie: session.cookie,
      ...(csrf && call.body !== undefined ? { 'X-CSRF-Token': session.csrf } : {}),
      ...call.headers,
    },
  });

describe('signing in to the workspace', () => {
  it('mails a one-time link to a provider, and answers an unknown address just the same', async () => {
    const grace = await provider();
    const nobody = uniqueEmail('nobody');
    const known = await askForLink(grace.email);
    const unknown = await askForLink(nobody);
    expect(known.status).toBe(202);
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: known.status,
      body: known.body,
    });
    expect(known.body).toMatchObject({ object: 'sign_in', status: 'accepted' });
    await linkMailedTo(grace.email);
    // The known address's mail has come; nothing went to the unknown one meanwhile.
    expect(await mailsTo(nobody)).toEqual([]);
  });

  it('opens a session once per link, in an HttpOnly, SameSite=Strict cookie', async () => {
    const {
      account: grace,
      session,
      setCookie,
    } = await signedIn(undefined, { headers: { 'User-Agent': 'Workspace test' } });
    expect(setCookie).toMatch(/^handoff_session=hws_[0-9A-Za-z]{43};/);
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Strict/i);
    expect(setCookie).toMatch(/; Path=\//i);
    // Over plain http the cookie cannot be Secure (nor `__Host-`).
    expect(setCookie).not.toMatch(/; Secure/i);
    expect(session.answer.body).toMatchObject({
      object: 'workspace_session',
      id: expect.stringMatching(/^pss_/),
      provider: { id: grace.id, email: grace.email, categories: ['home-services'] },
      csrf_token: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const read = await asSession(session, '/v1/workspace/session');
    expect(read).toMatchObject({
      status: 200,
      body: { id: session.id, csrf_token: session.csrf, provider: { id: grace.id } },
    });
    expect((await asSession(session, '/v1/provider/me')).body).toMatchObject({
      id: grace.id,
      key_id: session.id,
    });
    const sessions = await stack.asStaff(`/providers/${grace.id}/sessions`);
    expect(sessions.body.data).toEqual([
      expect.objectContaining({ id: session.id, status: 'active', user_agent: 'Workspace test' }),
    ]);
  });

  it('refuses a used, an expired and a guessed link with one and the same answer', async () => {
    const grace = await provider();
    await askForLink(grace.email);
    const used = await linkMailedTo(grace.email);
    await signIn(used);
    const again = await http(stack.gateway, '/v1/workspace/session', { body: { token: used } });

    await askForLink(grace.email);
    const late = await linkMailedTo(grace.email, 1);
    // Fifteen minutes pass for this link: it is stored by its token's hash.
    const links = stack.backend('intake').store.db.collection('provider_sign_in_links');
    const hash = createHash('sha256').update(late).digest('hex');
    const aged = await links.updateOne(
      { _id: hash as never },
      { $set: { expires_at: new Date(Date.now() - 1_000) } },
    );
    expect(aged.matchedCount).toBe(1);
    const expired = await http(stack.gateway, '/v1/workspace/session', { body: { token: late } });

    const guessed = await http(stack.gateway, '/v1/workspace/session', {
      body: { token: `hsl_${'A'.repeat(43)}` },
    });
    const garbage = await http(stack.gateway, '/v1/workspace/session', {
      body: { token: 'not-a-link' },
    });
    const answers = [again, expired, guessed, garbage].map((answer) => ({
      status: answer.status,
      code: answer.body.code,
      detail: answer.body.detail,
      cookie: answer.headers.get('set-cookie'),
    }));
    expect(answers[0]).toMatchObject({ status: 401, code: 'sign_in_link_invalid', cookie: null });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
  });

  it('sets a Secure `__Host-` cookie when the call came over TLS', async () => {
    const { session, setCookie } = await signedIn(undefined, {
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(setCookie).toMatch(/^__Host-handoff_session=hws_/);
    expect(setCookie).toMatch(/; Secure/i);
    // The gateway reads it under that name too.
    expect((await asSession(session, '/v1/workspace/session')).status).toBe(200);
  });

  it(`sends at most ${WORKSPACE_LIMITS.signInPerAddress} links to one address, however often asked`, async () => {
    const grace = await provider();
    const asks: Answer[] = [];
    // From many client addresses, so the per-address budget is what stops them.
    for (let round = 0; round < 10; round += 1) {
      asks.push(...(await Promise.all(Array.from({ length: 10 }, () => askForLink(grace.email)))));
    }
    expect(new Set(asks.map((answer) => answer.status))).toEqual(new Set([202]));
    const allowed = WORKSPACE_LIMITS.signInPerAddress;
    await eventually(
      async () => ((await mailsTo(grace.email)).length >= allowed ? true : undefined),
      { timeoutMs: 60_000, what: `${allowed} sign-in mails` },
    );
    // Every ask has been answered and the last links mailed; no further mail is on its way.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await mailsTo(grace.email)).length).toBe(allowed);
  });

  it('limits the asks of one client address with 429', async () => {
    const from = address();
    const answers: number[] = [];
    for (let i = 0; i < 12; i += 1) answers.push((await askForLink(uniqueEmail(), from)).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(answers.slice(10)).toEqual([429, 429]);
  });
});

describe('a workspace session', () => {
  it('makes changes only with its CSRF token, from its own origin', async () => {
    const { account, session } = await signedIn();
    const request = await stack.routedRequest(agent, [account]);
    const path = `/v1/provider/requests/${request.id}/messages`;
    const body = { message: 'Hello from the workspace.' };
    const refusals = [
      await asSession(session, path, { body }, false),
      await asSession(session, path, { body, headers: { 'X-CSRF-Token': 'f'.repeat(64) } }),
      await asSession(session, path, { body, headers: { Origin: 'https://evil.example' } }),
      await asSession(session, path, { body, headers: { 'Sec-Fetch-Site': 'cross-site' } }),
    ];
    expect(refusals.map((answer) => [answer.status, answer.body.code])).toEqual(
      Array(4).fill([403, 'csrf_token_invalid']),
    );
    const sent = await asSession(session, path, {
      body,
      headers: { Origin: stack.gateway.url, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(sent).toMatchObject({ status: 201, body: { author_role: 'provider' } });
    // Reads need no token.
    expect((await asSession(session, `/v1/provider/requests/${request.id}`)).status).toBe(200);
  });

  it('ends at the next call after a sign-out, a staff revocation or a suspension', async () => {
    const { account, session: first } = await signedIn();
    const out = await asSession(first, '/v1/workspace/session/end', { body: {} });
    expect(out).toMatchObject({ status: 200, body: { status: 'ended', ended_by: 'provider' } });
    expect(out.headers.get('set-cookie')).toMatch(/handoff_session=;/);
    expect(await asSession(first, '/v1/provider/requests')).toMatchObject({
      status: 401,
      body: { code: 'workspace_session_invalid' },
    });

    const { session: second } = await signedIn(account);
    expect((await asSession(second, '/v1/provider/requests')).status).toBe(200);
    const revoked = await stack.asStaff(`/provider-sessions/${second.id}/revoke`, {
      method: 'POST',
    });
    expect(revoked).toMatchObject({ status: 200, body: { status: 'ended', ended_by: 'staff' } });
    expect((await asSession(second, '/v1/provider/requests')).status).toBe(401);
    const audit = await stack.asStaff('/audit-log?limit=20');
    expect(audit.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'provider_session.revoked', target_id: second.id }),
      ]),
    );

    const { session: third } = await signedIn(account);
    expect((await asSession(third, '/v1/provider/requests')).status).toBe(200);
    const suspended = await stack.asStaff(`/providers/${account.id}`, {
      method: 'PATCH',
      body: { status: 'suspended' },
    });
    expect(suspended.status).toBe(200);
    expect(await asSession(third, '/v1/provider/requests')).toMatchObject({
      status: 401,
      body: { code: 'workspace_session_invalid' },
    });
    const sessions = await stack.asStaff(`/providers/${account.id}/sessions?status=ended`);
    expect((sessions.body.data as { ended_by: string }[]).map((s) => s.ended_by).sort()).toEqual([
      'provider',
      'staff',
      'suspension',
    ]);
    // A suspended provider's address gets no link.
    const seen = (await mailsTo(account.email)).length;
    expect((await askForLink(account.email)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await mailsTo(account.email)).length).toBe(seen);
  });
});

describe('the provider API the workspace adds', () => {
  it('counts unread messages per request, and reads them back to zero', async () => {
    const { account, session } = await signedIn();
    const request = await stack.routedRequest(agent, [account]);
    for (const message of ['Are you free on Tuesday?', 'The tap is in the kitchen.']) {
      const sent = await stack.asCustomer(agent, request, '/message', { body: { message } });
      expect(sent.status).toBe(201);
    }
    const unread = async () => {
      const inbox = await asSession(session, '/v1/provider/requests');
      const item = (inbox.body.data as { id: string; unread_messages: number | null }[]).find(
        (entry) => entry.id === request.id,
      );
      return item?.unread_messages;
    };
    await eventually(async () => ((await unread()) === 2 ? true : undefined), {
      what: 'two unread messages',
    });
    const read = await asSession(session, `/v1/provider/requests/${request.id}/read`, {
      body: {},
    });
    expect(read).toMatchObject({ status: 200, body: { unread_messages: 0 } });
    expect(await unread()).toBe(0);
    const conversation = await asSession(session, `/v1/provider/requests/${request.id}/messages`);
    expect((conversation.body.data as { message: string }[]).map((m) => m.message)).toEqual([
      'The tap is in the kitchen.',
      'Are you free on Tuesday?',
    ]);
  });

  it('long-polls a request: messages whole, its own work reduced, others’ proposals left out', async () => {
    const [mine, theirs] = await Promise.all([provider(), provider()]);
    const request = await stack.routedRequest(agent, [mine, theirs]);
    const polled = http(
      stack.gateway,
      `/v1/provider/requests/${request.id}/events?after=0&wait=25`,
      { token: mine.key },
    );
    const first = await polled;
    expect(first.status).toBe(200);
    const after = Math.max(
      0,
      ...(first.body.data as { data: { sequence: number } }[]).map((e) => e.data.sequence),
    );
    const waiting = http(
      stack.gateway,
      `/v1/provider/requests/${request.id}/events?after=${after}&wait=25`,
      { token: mine.key },
    );
    // Another provider's proposal comes first: it is passed over, and the wait goes on.
    await stack.propose(theirs, request.id);
    await stack.asCustomer(agent, request, '/message', { body: { message: 'Any news?' } });
    const woken = await waiting;
    expect(woken.status).toBe(200);
    const events = woken.body.data as { type: string; data: { object: Record<string, unknown> } }[];
    expect(events.map((event) => event.type)).toEqual(['message.created']);
    expect(events[0]?.data.object).toMatchObject({ object: 'message', message: 'Any news?' });

    const proposalId = await stack.propose(mine, request.id, PROPOSAL);
    // Read from the feed, which has it once the dispatcher stored it.
    const proposals = await eventually(async () => {
      const later = await http(
        stack.gateway,
        `/v1/provider/requests/${request.id}/events?after=0`,
        { token: mine.key },
      );
      const found = (
        later.body.data as { type: string; data: { object: Record<string, unknown> } }[]
      ).filter((event) => event.type.startsWith('proposal.'));
      return found.length > 0 ? found : undefined;
    });
    expect(proposals.map((event) => event.data.object)).toEqual([
      { object: 'proposal', id: proposalId, status: 'submitted' },
    ]);
  });

  it('tells two providers of one request their own messages: `mine`, in the list and the long-poll', async () => {
    const [mine, theirs] = await Promise.all([provider(), provider()]);
    const request = await stack.routedRequest(agent, [mine, theirs]);
    const as = (who: ProviderAccount, path: string, call: Call = {}) =>
      http(stack.gateway, `/v1/provider/requests/${request.id}${path}`, {
        token: who.key,
        ...call,
      });
    type Event = { type: string; data: { sequence: number; object: Record<string, unknown> } };
    const messagesIn = (answer: Answer) =>
      (answer.body.data as Event[])
        .filter((event) => event.type === 'message.created')
        .map((event) => event.data.object);
    const known = await as(mine, '/events?after=0');
    const after = Math.max(0, ...(known.body.data as Event[]).map((e) => e.data.sequence));

    // Both wait; the first provider's message wakes both (the events the bus brought).
    const waiting = as(mine, `/events?after=${after}&wait=25`);
    const waitingOther = as(theirs, `/events?after=${after}&wait=25`);
    const sent = await as(mine, '/messages', { body: { message: 'I can come on Monday.' } });
    expect(sent).toMatchObject({
      status: 201,
      body: { object: 'message', author_role: 'provider', mine: true },
    });
    expect(messagesIn(await waiting)).toEqual([{ ...sent.body, mine: true }]);
    expect(messagesIn(await waitingOther)).toEqual([{ ...sent.body, mine: false }]);

    const other = await as(theirs, '/messages', { body: { message: 'I can come on Sunday.' } });
    expect(other).toMatchObject({ status: 201, body: { mine: true } });
    const fromAgent = await stack.asCustomer(agent, request, '/message', {
      body: { message: 'Monday it is.' },
    });
    expect(fromAgent.status).toBe(201);
    // A provider's message stored before authors were kept: nobody's own.
    const older = {
      _id: newId('msg'),
      request_id: request.id,
      integration_id: agent.integrationId,
      author_role: 'provider',
      message: 'Written before authors were kept.',
      created_at: new Date(),
    };
    await stack
      .backend('conversation')
      .store.db.collection('messages')
      .insertOne(older as never);

    const byText = (list: Record<string, unknown>[]) =>
      Object.fromEntries(list.map((message) => [message.message, message.mine]));
    for (const [who, own, another] of [
      [mine, 'I can come on Monday.', 'I can come on Sunday.'],
      [theirs, 'I can come on Sunday.', 'I can come on Monday.'],
    ] as const) {
      const listed = await as(who, '/messages');
      expect(listed.status).toBe(200);
      expect(byText(listed.body.data as Record<string, unknown>[])).toEqual({
        [own]: true,
        [another]: false,
        'Monday it is.': false,
        'Written before authors were kept.': false,
      });
      // The feed's events (read from the dispatcher's store): the same answer.
      const events = await eventually(
        async () => {
          const answer = await as(who, `/events?after=${after}`);
          return messagesIn(answer).length === 3 ? messagesIn(answer) : undefined;
        },
        { what: 'three message events in the feed' },
      );
      expect(byText(events)).toEqual({
        [own]: true,
        [another]: false,
        'Monday it is.': false,
      });
    }

    // The agent's side is as it was: no `mine`, and no provider named, in reads or events.
    const shape = Object.keys(fromAgent.body).sort();
    const read = await stack.asCustomer(agent, request, '/messages');
    for (const message of read.body.data as Record<string, unknown>[]) {
      expect(Object.keys(message).sort()).toEqual(shape);
    }
    const agentEvents = await stack.asCustomer(agent, request, '/events?after=0');
    const objects = messagesIn(agentEvents);
    expect(objects).toHaveLength(3);
    // An event's object is as the service made it: `livemode` is said by its envelope.
    const eventShape = shape.filter((key) => key !== 'livemode');
    for (const object of objects) expect(Object.keys(object).sort()).toEqual(eventShape);
    for (const event of agentEvents.body.data as { livemode: boolean }[]) {
      expect(event.livemode).toBe(true);
    }
    expect(JSON.stringify([read.body.data, objects])).not.toMatch(/prv_/);
  });

  it('shows an engaged provider what has been paid, and nothing to others', async () => {
    const [mine, other] = await Promise.all([provider(), provider()]);
    const request = await stack.routedRequest(agent, [mine, other]);
    const proposalId = await stack.propose(mine, request.id);
    const accepted = await stack.asCustomer(agent, request, `/proposals/${proposalId}/accept`, {
      method: 'POST',
    });
    expect(accepted.status).toBe(200);
    const asked = await stack.asCustomer(agent, request, '/payment-request', {
      body: { amount: 120, currency: 'USD', description: 'Deposit' },
    });
    expect(asked.status).toBe(201);
    expect(
      (
        await stack.asStaff(`/payment-requests/${String(asked.body.id)}/approve`, {
          method: 'POST',
        })
      ).status,
    ).toBe(200);
    const payments = await stack.asStaff(`/payments?request_id=${request.id}`);
    const paymentId = String((payments.body.data as { id: string }[])[0]?.id);
    expect((await stack.asStaff(`/payments/${paymentId}/confirm`, { body: {} })).status).toBe(200);
    const seen = await http(stack.gateway, `/v1/provider/requests/${request.id}/payments`, {
      token: mine.key,
    });
    expect(seen.body.data).toEqual([
      expect.objectContaining({ id: paymentId, amount: 120, status: 'completed' }),
    ]);
    expect((seen.body.data as Record<string, unknown>[])[0]).not.toHaveProperty('provider');
    // A provider the request was only routed to sees none of its payments.
    const others = await http(stack.gateway, `/v1/provider/requests/${request.id}/payments`, {
      token: other.key,
    });
    expect(others).toMatchObject({ status: 200, body: { data: [], has_more: false } });
  });
});
