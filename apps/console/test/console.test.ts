import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@handoff/testkit';
import { apply as applyAs, approveAndClaim, http } from '@handoff/web-ui/testing';
import type { Locator, Page } from 'playwright-core';
import { openBrowser, type Browser } from './support/browser.ts';
import { providerOf, startStack, type Stack } from './support/stack.ts';

// The staff console in a real Chromium (Debian's `chromium`, installed by scripts/setup.sh),
// against the real stack: every click goes through the gateway to the services and back.

const CUSTOMER_SCOPES = [
  'requests:create',
  'requests:read',
  'payments:propose',
  'proposals:read',
  'proposals:accept',
  'jobs:read',
  'disputes:read',
  'disputes:manage',
];

let stack: Stack;
let browser: Browser;
let page: Page;
const problems: string[] = [];
/** Each Idempotency-Key sent, with the one action (method, URL, body) it was sent for. */
const keys = new Map<string, string>();
/** Actions sent again with their first attempt's key. */
const resent: string[] = [];
let changes = 0;

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  stack = await startStack('console');
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // Every change the console makes carries an Idempotency-Key (a random UUID), one per action:
  // a key is never sent for two different actions; the same action sent again keeps its key.
  page.on('request', (request) => {
    if (request.method() === 'GET' || !request.url().includes('/v1/staff/')) return;
    changes += 1;
    const key = request.headers()['idempotency-key'] ?? '';
    const action = `${request.method()} ${request.url()} ${request.postData() ?? ''}`;
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(key)) {
      problems.push(`no Idempotency-Key on ${action}`);
    } else if (keys.get(key) === action) {
      resent.push(action);
    } else if (keys.has(key)) {
      problems.push(`Idempotency-Key ${key} sent for ${keys.get(key)} and for ${action}`);
    }
    keys.set(key, action);
  });
  page.on('response', (response) => {
    if (response.status() >= 404) problems.push(`${response.status()} ${response.url()}`);
  });
  // The browser logs the refusals the tests ask for (401, 403) and the one answer they drop.
  page.on('console', (message) => {
    const expected = /status of 40[13]|net::ERR_CONNECTION_RESET/;
    if (message.type() === 'error' && !expected.test(message.text())) {
      problems.push(`console error: ${message.text()}`);
    }
  });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const shot = (name: string) => browser.shot(name);
const button = (name: string | RegExp, within: Page | Locator = page) =>
  within.getByRole('button', { name, exact: typeof name === 'string' });
const card = (text: string) => page.getByRole('listitem').filter({ hasText: text });
const screen = async (name: string) => {
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('button', { name, exact: true })
    .click();
};

let applicant = { id: '', secret: '', name: '' };

const apply = (name: string, scopes = CUSTOMER_SCOPES) => applyAs(stack, name, scopes);

describe('the staff console', () => {
  let agentKey = '';
  /** The customer side of the dispute flow: its agent key and request. */
  let disputed = { key: '', request: { id: '', token: '' } };
  let integrationId = '';

  it('is served at /console with its own strict CSP, and at /console/', async () => {
    for (const path of ['/console', '/console/']) {
      const res = await fetch(`${stack.gateway.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
          "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('signs in only with a staff token: an agent key is refused, by the API and the console', async () => {
    const { key } = await approveAndClaim(stack, await apply('Key Holder'), ['requests:read']);
    expect(await http(stack, '/v1/me', { token: key })).toMatchObject({ status: 200 });
    const refused = await http(stack, '/v1/staff/access-applications', { token: key });
    expect([401, 403]).toContain(refused.status);

    await page.goto(`${stack.gateway.url}/console`);
    await page.getByLabel('Staff token (JWT)').fill(key);
    await button('Sign in').click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^Not signed in: /);
    expect(await page.getByRole('navigation', { name: 'Screens' }).count()).toBe(0);
    await shot('sign-in-refused');

    // By keyboard alone: type the token, Tab to the button, Enter.
    await page.getByLabel('Staff token (JWT)').fill(stack.staff);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Sign in');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Queues' }).waitFor();
    // The token is in the page's memory only: no storage, no cookie.
    expect(
      await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]),
    ).toEqual([0, 0, '']);
  });

  it('shows the queues with counts, deadlines soonest first', async () => {
    applicant = await apply('Acme Concierge');
    await screen('Applications');
    await screen('Queues');
    const applications = button(/^Access applications/);
    await expect(applications.textContent()).resolves.toMatch(/Access applications\s*\d+/);
    // Requests waiting for a marketplace review, from GET /v1/staff/requests.
    await expect(button(/^Marketplace reviews/).textContent()).resolves.toMatch(
      /Marketplace reviews\s*\d+/,
    );
    await page.getByRole('heading', { name: /Deadlines, soonest first/ }).waitFor();
  });

  it("approves an application with the scopes staff choose; the applicant's key then works", async () => {
    await screen('Applications');
    const entry = card(applicant.id);
    await button(`Decide on ${applicant.name}`, entry).click();
    // Staff take one requested scope away.
    await entry.getByRole('checkbox', { name: 'disputes:read (requested)' }).uncheck();
    await entry.getByRole('checkbox', { name: 'disputes:manage (requested)' }).uncheck();
    await shot('applications');
    await button(`Approve with ${CUSTOMER_SCOPES.length - 2} scopes`, entry).click();
    const status = page.getByRole('status').filter({ hasText: `Approved ${applicant.name}` });
    await status.waitFor();
    integrationId = /integration (\S+)\.$/.exec((await status.textContent()) ?? '')?.[1] ?? '';
    expect(integrationId).toMatch(/^int_/);

    const claimed = await http(stack, `/v1/access-applications/${applicant.id}/api-key`, {
      method: 'POST',
      headers: { 'X-Application-Secret': applicant.secret },
    });
    expect(claimed.status).toBe(201);
    agentKey = String(claimed.body.api_key);
    const me = await http(stack, '/v1/me', { token: agentKey });
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).toContain('payments:propose');
    expect(JSON.stringify(me.body)).not.toContain('disputes:manage');
  });

  it('approves a payment request (after confirming), then confirms the payment it made', async () => {
    const created = await http(stack, '/v1/ai-to-human-request', {
      token: agentKey,
      body: {
        message: 'Please find me a plumber for a leaking kitchen tap this week.',
        category: 'home-services',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
      },
    });
    expect(created.status).toBe(201);
    const request = { id: String(created.body.id), token: String(created.body.request_token) };
    const proposed = await http(stack, `/v1/request/${request.id}/payment-request`, {
      token: agentKey,
      headers: { 'X-Service-Request-Token': request.token },
      body: { amount: 125.5, description: 'Parts and labour' },
    });
    expect(proposed.status).toBe(201);
    const prId = String(proposed.body.id);

    await screen('Payments');
    const entry = card(prId);
    await button('Approve payment request', entry).click();
    // Nothing happens before the confirmation.
    await button('Confirm', entry).waitFor();
    const waiting = await http(stack, '/v1/staff/payment-requests?status=pending_approval', {
      token: stack.staff,
    });
    expect((waiting.body.data as { id: string }[]).map((pr) => pr.id)).toContain(prId);
    await shot('payments');
    // The confirmation takes the focus, so Enter confirms.
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Confirm');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Approved payment request ${prId}` })
      .waitFor();
    const payment = await eventually(async () => {
      const list = await http(stack, `/v1/staff/payments?request_id=${request.id}`, {
        token: stack.staff,
      });
      const found = (list.body.data as { id: string; status: string }[])[0];
      if (!found) throw new Error('no payment yet');
      return found;
    });
    expect(payment.status).toBe('pending');

    await screen('Queues');
    await screen('Payments');
    const pending = card(payment.id);
    await pending.getByLabel('Reference (optional, e.g. the bank transfer)').fill('transfer 4711');
    await button('Confirm payment', pending).click();
    await button('Confirm', pending).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Confirmed payment ${payment.id}` })
      .waitFor();
    const after = await http(stack, `/v1/staff/payments/${payment.id}`, { token: stack.staff });
    expect(after.body).toMatchObject({ status: 'completed', provider_reference: 'transfer 4711' });
  });

  it('resolves a dispute with a split, after confirming', async () => {
    const { key } = await approveAndClaim(stack, await apply('Dispute Maker'), CUSTOMER_SCOPES);
    const provider = await providerOf(stack, 'Pat the Plumber', 'pat@example.com');
    const created = await http(stack, '/v1/ai-to-human-request', {
      token: key,
      body: {
        message: 'The bathroom tap drips all night.',
        category: 'home-services',
        name: 'Grace Hopper',
        email: 'grace@example.com',
      },
    });
    const request = { id: String(created.body.id), token: String(created.body.request_token) };
    const asCustomer = { 'X-Service-Request-Token': request.token };
    disputed = { key, request };
    expect(
      await http(stack, `/v1/staff/requests/${request.id}`, {
        method: 'PATCH',
        token: stack.staff,
        body: { status: 'routed', routing: { mode: 'direct', provider_ids: [provider.id] } },
      }),
    ).toMatchObject({ status: 200 });
    const proposal = await http(stack, `/v1/provider/requests/${request.id}/proposals`, {
      token: provider.key,
      body: {
        message: 'Thursday, parts included.',
        amount: 240,
        currency: 'USD',
        estimated_days: 3,
      },
    });
    expect(proposal.status).toBe(201);
    expect(
      await http(stack, `/v1/request/${request.id}/proposals/${String(proposal.body.id)}/accept`, {
        method: 'POST',
        token: key,
        headers: asCustomer,
      }),
    ).toMatchObject({ status: 200 });
    const opened = await http(stack, `/v1/request/${request.id}/disputes`, {
      token: key,
      headers: asCustomer,
      body: { kind: 'dispute', reason: 'The tap still drips.' },
    });
    expect(opened.status).toBe(201);
    const disputeId = String(opened.body.id);

    await screen('Disputes');
    const entry = card(disputeId);
    await button(`Open case ${disputeId}`, entry).click();
    await entry.getByRole('radio', { name: 'split' }).check();
    await entry.getByLabel("Customer's share in percent (1–99)").fill('30');
    await entry.getByLabel('Reason for the resolution (both parties see it)').fill('Half fixed.');
    await button('Resolve case', entry).click();
    await shot('disputes');
    await button('Confirm', entry).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Resolved ${disputeId} for split` })
      .waitFor();
    const resolved = await http(stack, `/v1/staff/disputes/${disputeId}`, { token: stack.staff });
    expect(resolved.body).toMatchObject({
      status: 'resolved',
      resolution: { outcome: 'split', customer_share_percent: 30, reason: 'Half fixed.' },
    });

    await screen('Request');
    await page.getByLabel('Request id').fill(request.id);
    await button('Open').click();
    await page.getByText('The bathroom tap drips all night.').waitFor();
    await shot('request');
  });

  it("rotates an integration's key: the new one, shown once, works; the old one is refused", async () => {
    await screen('Integrations');
    await page.getByLabel('Integration id').fill(integrationId);
    await button('Open').click();
    const last4 = agentKey.slice(-4);
    await button(`Rotate ${last4}`).click();
    await button('Confirm').click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Rotated: issued / })
      .waitFor();
    const secret = await page.getByTestId('once-secret').inputValue();
    expect(secret).toMatch(/^hk_live_/);
    await shot('integrations');
    expect(await http(stack, '/v1/me', { token: secret })).toMatchObject({ status: 200 });
    await eventually(async () => {
      expect((await http(stack, '/v1/me', { token: agentKey })).status).toBe(401);
      return true;
    });
    // Shown once: dismissed, it is gone from the page.
    await button('I have copied it; hide it').click();
    expect(await page.getByTestId('once-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
  });

  it("issues an integration's test key, whose data staff then delete, leaving live data", async () => {
    await screen('Integrations');
    await page.getByLabel('Integration id').fill(integrationId);
    await button('Open').click();
    await button('Issue a test key').click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Issued test key / })
      .waitFor();
    const testKey = await page.getByTestId('once-secret').inputValue();
    expect(testKey).toMatch(/^hk_test_/);
    const me = await http(stack, '/v1/me', { token: testKey });
    expect(me.body).toMatchObject({ livemode: false });
    const created = await http(stack, '/v1/ai-to-human-request', {
      token: testKey,
      body: { message: 'A test request to delete.', test_scenario: 'declines' },
    });
    expect(created.body).toMatchObject({ livemode: false });
    await button('I have copied it; hide it').click();
    // The integration now names its test twin, and offers to delete its data.
    await page.getByText('Test keys and test data belong to its test integration').waitFor();
    await shot('integrations-test-mode');
    await button('Delete test data').click();
    await button('Confirm').click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Deleted 1 test requests/ })
      .waitFor();
    const gone = await http(stack, `/v1/staff/requests/${String(created.body.id)}`, {
      token: stack.staff,
    });
    expect(gone.status).toBe(404);
  });

  it('lists what waits on somebody, soonest deadline first, and cancels a job from there', async () => {
    // Something in the queues besides the deadlines, for the picture.
    await apply('Globex Travel Desk');
    const proposed = await http(stack, `/v1/request/${disputed.request.id}/payment-request`, {
      token: disputed.key,
      headers: { 'X-Service-Request-Token': disputed.request.token },
      body: { amount: 80, description: 'Second visit' },
    });
    expect(proposed.status).toBe(201);
    await screen('Queues');
    await expect(button(/^Access applications/).textContent()).resolves.toMatch(/\s*1$/);
    await expect(button(/^Payment requests/).textContent()).resolves.toMatch(/\s*1$/);
    const rows = page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'Request' }) });
    await rows.first().waitFor();
    const deadlines = (await rows.locator('td:first-child').allTextContents()).map((t) =>
      t.replace(' (overdue)', ''),
    );
    expect(deadlines.length).toBeGreaterThan(0);
    expect([...deadlines].sort()).toEqual(deadlines);
    await shot('queues');

    // The disputed job, still active: cancelled with a reason, after confirming.
    const job = rows.filter({ hasText: /job_/ }).first();
    const jobId = ((await job.locator('td').nth(1).textContent()) ?? '').replace(/^job\s*/, '');
    expect(jobId).not.toBe('');
    await page
      .getByLabel('Reason for a cancellation (required, the parties see it)')
      .fill('Provider unreachable.');
    await button('Cancel job', job).click();
    await button('Confirm', job).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Cancelled job ${jobId}` })
      .waitFor();
    const jobs = await http(stack, `/v1/request/${disputed.request.id}/jobs/${jobId}`, {
      token: disputed.key,
      headers: { 'X-Service-Request-Token': disputed.request.token },
    });
    expect(jobs.body).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Provider unreachable.',
    });
  });

  it('marks a payment failed only with a reason, after confirming', async () => {
    // The second payment request of the disputed request, still waiting in the queue above.
    await screen('Payments');
    const entry = card('Second visit');
    await button('Approve payment request', entry).click();
    await button('Confirm', entry).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Approved payment request / })
      .waitFor();
    const payment = await eventually(async () => {
      const list = await http(
        stack,
        `/v1/staff/payments?request_id=${disputed.request.id}&status=pending`,
        { token: stack.staff },
      );
      return (list.body.data as { id: string }[])[0];
    });
    await screen('Queues');
    await screen('Payments');
    const pending = card(payment.id);
    const fail = button('Mark payment failed', pending);
    expect(await fail.isDisabled()).toBe(true);
    await pending.getByLabel('Reason for failure').fill('Card declined.');
    await fail.click();
    await button('Confirm', pending).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Marked payment ${payment.id} failed` })
      .waitFor();
    expect(
      (await http(stack, `/v1/staff/payments/${payment.id}`, { token: stack.staff })).body,
    ).toMatchObject({ status: 'failed', failure_reason: 'Card declined.' });
  });

  it('rejects an application only with a reason, which the applicant then sees', async () => {
    const spam = await apply('Spam Machine');
    await screen('Applications');
    const entry = card(spam.id);
    await button(`Decide on ${spam.name}`, entry).click();
    const reject = button('Reject', entry);
    expect(await reject.isDisabled()).toBe(true);
    await entry
      .getByLabel('Reason for rejection (the applicant sees it)')
      .fill('Not a real product.');
    await reject.click();
    await page
      .getByRole('status')
      .filter({ hasText: `Rejected ${spam.name}` })
      .waitFor();
    const seen = await http(stack, `/v1/access-applications/${spam.id}`, {
      headers: { 'X-Application-Secret': spam.secret },
    });
    expect(seen.body).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Not a real product.',
    });
  });

  it('onboards a provider, issues its key (shown once) and revokes it after confirming', async () => {
    await screen('Providers');
    const form = page.getByRole('form', { name: 'Onboard a provider' });
    await form.getByLabel('Name').fill('Robin Electric');
    await form.getByLabel('Email').fill('robin@example.com');
    await form.getByLabel('Categories (comma-separated)').fill('home-services');
    await button('Onboard', form).click();
    await page.getByRole('status').filter({ hasText: 'Onboarded Robin Electric.' }).waitFor();
    const entry = card('robin@example.com');
    await button('Profile and keys of Robin Electric', entry).click();
    await button('Issue a provider key', entry).click();
    const secret = await entry.getByTestId('once-secret').inputValue();
    expect(secret).toMatch(/^hpk_live_/);
    await shot('providers');
    expect(await http(stack, '/v1/provider/me', { token: secret })).toMatchObject({ status: 200 });
    await button('I have copied it; hide it', entry).click();
    expect(await page.content()).not.toContain(secret);
    await button(`Revoke ${secret.slice(-4)}`, entry).click();
    await button('Confirm', entry).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Revoked / })
      .waitFor();
    await eventually(async () => {
      expect((await http(stack, '/v1/provider/me', { token: secret })).status).toBe(401);
      return true;
    });
  });

  /** The timeline's request and the title of its milestone. */
  let engaged = { requestId: '', milestoneTitle: 'Fit a new washer' };

  it("shows a request's timeline: messages, the accepted proposal, milestones, events in sequence", async () => {
    const scopes = [...CUSTOMER_SCOPES, 'messages:create'];
    const { key } = await approveAndClaim(stack, await apply('Timeline Maker', scopes), scopes);
    const provider = await providerOf(stack, 'Sam the Fitter', 'sam@example.com');
    const created = await http(stack, '/v1/ai-to-human-request', {
      token: key,
      body: { message: 'The shower head leaks.', category: 'home-services' },
    });
    expect(created.status).toBe(201);
    const requestId = String(created.body.id);
    const asCustomer = { 'X-Service-Request-Token': String(created.body.request_token) };
    engaged = { ...engaged, requestId };
    expect(
      await http(stack, `/v1/staff/requests/${requestId}`, {
        method: 'PATCH',
        token: stack.staff,
        body: { status: 'routed', routing: { mode: 'direct', provider_ids: [provider.id] } },
      }),
    ).toMatchObject({ status: 200 });
    const proposal = await http(stack, `/v1/provider/requests/${requestId}/proposals`, {
      token: provider.key,
      body: {
        message: 'A new washer on Friday.',
        amount: 90,
        currency: 'USD',
        estimated_days: 2,
        milestones: [{ title: 'Fit a new washer', amount: 90, due_in_days: 3 }],
      },
    });
    expect(proposal.status).toBe(201);
    const proposalId = String(proposal.body.id);
    expect(
      await http(stack, `/v1/request/${requestId}/proposals/${proposalId}/accept`, {
        method: 'POST',
        token: key,
        headers: asCustomer,
      }),
    ).toMatchObject({ status: 200 });
    expect(
      await http(stack, `/v1/request/${requestId}/message`, {
        token: key,
        headers: asCustomer,
        body: { message: 'Friday suits me.' },
      }),
    ).toMatchObject({ status: 201 });
    expect(
      await http(stack, `/v1/provider/requests/${requestId}/messages`, {
        token: provider.key,
        body: { message: 'See you on Friday.' },
      }),
    ).toMatchObject({ status: 201 });
    // The dispatcher stores events as they come: wait until both messages' events are there.
    const events = await eventually(async () => {
      const timeline = await http(stack, `/v1/staff/requests/${requestId}/timeline`, {
        token: stack.staff,
      });
      const found = (timeline.body.data as { kind: string; status: string | null }[]).filter(
        (entry) => entry.kind === 'event',
      );
      return found.filter((e) => e.status === 'message.created').length >= 2 ? found : undefined;
    });

    await screen('Request');
    await page.getByLabel('Request id').fill(requestId);
    await button('Open').click();
    const timeline = page.getByRole('region', { name: 'Timeline entries' });
    const row = (text: string | RegExp) => timeline.getByRole('row').filter({ hasText: text });
    await row('See you on Friday.').waitFor();
    await expect(row(proposalId).textContent()).resolves.toMatch(/Proposal.*accepted/);
    await expect(row('Fit a new washer').textContent()).resolves.toMatch(/^.*Milestone/);
    await expect(row('Friday suits me.').textContent()).resolves.toMatch(/Message/);
    // Every event, each with its sequence, in sequence order.
    const eventRows = timeline.getByRole('row').filter({ hasText: /evt_/ });
    expect(await eventRows.count()).toBe(events.length);
    const sequences = await eventRows.evaluateAll((rows) =>
      rows.map((r) => Number((r as HTMLTableRowElement).cells[2]?.textContent)),
    );
    expect(sequences).toEqual(events.map((_, index) => index + 1));
    await expect(row(/proposal\.accepted/).textContent()).resolves.toMatch(/Event/);
    // Reachable by keyboard: the list scrolls under focus, the reload is a button.
    await timeline.focus();
    await expect(
      page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
    ).resolves.toBe('Timeline entries');
    await button('Reload the timeline').focus();
    await page.keyboard.press('Enter');
    await row('See you on Friday.').waitFor();
    await timeline.scrollIntoViewIfNeeded();
    await shot('request-timeline');
  });

  it('cancels a milestone; a click repeated after a lost answer resends its key, acting once', async () => {
    /** The milestone as staff's timeline of its request shows it. */
    const milestone = async () => {
      const timeline = await http(stack, `/v1/staff/requests/${engaged.requestId}/timeline`, {
        token: stack.staff,
      });
      return (timeline.body.data as { kind: string; id: string; summary: string }[]).find(
        (item) => item.kind === 'milestone' && item.summary.includes(engaged.milestoneTitle),
      );
    };
    const milestoneId = (await milestone())?.id ?? '';
    expect(milestoneId).toMatch(/^mst_/);
    const cancelUrl = `${stack.gateway.url}/v1/staff/milestones/${milestoneId}/cancel`;

    await screen('Request');
    await page.getByLabel('Request id').fill(engaged.requestId);
    await button('Open').click();
    const form = page.getByRole('group', { name: 'Cancel a job or a milestone of this request' });
    await form.getByLabel('Job id (job_…) or milestone id (mst_…)').fill(milestoneId);
    await form.getByLabel('Reason (the parties see it)').fill('The customer fitted it himself.');
    // The first attempt reaches the gateway, which cancels the milestone, but its answer is lost
    // on the way back, as a dropped connection would lose it.
    await page.route(
      cancelUrl,
      async (route) => {
        await route.fetch();
        await route.abort('connectionreset');
      },
      { times: 1 },
    );
    await button('Cancel it', form).click();
    await button('Confirm', form).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The gateway could not be reached.' })
      .waitFor();
    // The same action again: the same key, so the gateway answers what it did the first time
    // (a fresh key would be refused: the milestone is no longer open).
    await button('Cancel it', form).click();
    await button('Confirm', form).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Cancelled ${milestoneId}.` })
      .waitFor();
    expect(resent).toEqual([`POST ${cancelUrl} {"reason":"The customer fitted it himself."}`]);
    expect(await milestone()).toMatchObject({ status: 'cancelled' });
    // Acted on once: one audit entry for the milestone.
    const audit = await http(stack, '/v1/staff/audit-log?limit=100', { token: stack.staff });
    const entries = (audit.body.data as { action: string; target_id: string }[]).filter(
      (entry) => entry.target_id === milestoneId,
    );
    expect(entries).toHaveLength(1);
  });

  it('lists the audit log, filtered by action', async () => {
    await screen('Audit log');
    await page.getByLabel('Action').fill('approve');
    const rows = page.getByRole('row').filter({ hasText: 'ops@handoff.test' });
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(0);
    for (const text of await rows.allTextContents()) expect(text).toMatch(/approve/);
    await shot('audit');
  });

  it('keeps the token in memory only: a reload signs out', async () => {
    await page.reload();
    await page.getByLabel('Staff token (JWT)').waitFor();
    expect(await page.getByRole('navigation', { name: 'Screens' }).count()).toBe(0);
  });

  it('broke no Content-Security-Policy rule, raised no script error, sent every change with an Idempotency-Key of its action', () => {
    expect(changes).toBeGreaterThan(10);
    expect(problems).toEqual([]);
    // Only the action whose answer was lost went out twice; every other action had a key of its own.
    expect(resent).toHaveLength(1);
    expect(keys.size).toBe(changes - 1);
  });
});
