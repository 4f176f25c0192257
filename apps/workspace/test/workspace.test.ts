import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createProviderClient, toArray, type HandoffClient } from '@handoff/sdk';
import { eventually, testMail } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import {
  accessibilityProblems,
  fitsWidth,
  openBrowser,
  watchPage,
  type Browser,
} from './support/browser.ts';
import { agentOf, startStack, type Stack } from './support/stack.ts';

// The providers' workspace in a real Chromium (Debian's `chromium`), against the real stack: a
// provider signs in from the mail Mailpit holds, and works a request the agent's side (the SDK)
// and staff (the staff API) move along. Every screen is checked with axe-core, by keyboard and at
// a phone's width, and photographed to .test-results/workspace/.

let stack: Stack;
let browser: Browser;
let page: Page;
let phone: Page;
let agent: HandoffClient;
const problems: string[] = [];
/** From the moment staff end the session: the workspace's calls are refused with 401. */
let signedOutExpected = false;
/** While another tab's sign-in has replaced the cookie: one change is refused for its token. */
let csrfRefusalExpected = false;
/** A request staff routed away from the provider: its calls are refused with 404. */
let goneRequest = '';

/**
 * Whether the flow asks for this refusal: the session check of a signed-out visitor, a used link
 * and the calls after staff end the session (401), a change sent with a replaced session's token
 * (403), the calls about a request routed elsewhere (404).
 */
function expectedRefusal(status: number, url: string): boolean {
  if (status === 401) {
    return (
      url.includes('/v1/workspace/session') || (signedOutExpected && url.includes('/v1/provider/'))
    );
  }
  if (status === 403) return csrfRefusalExpected && url.includes('/v1/provider/');
  if (status === 404) {
    return goneRequest !== '' && url.includes(`/v1/provider/requests/${goneRequest}`);
  }
  return false;
}

const suffix = randomBytes(4).toString('hex');
const provider = { id: '', name: 'Lovelace Plumbing', email: `ada.${suffix}@example.com` };
const request = { id: '', subject: 'Leaking kitchen tap' };
const mail = testMail();
/** Mailpit ids of the sign-in mails used so far. */
const usedMails = new Set<string>();

/** Watches a page for what must never happen; a 401 answer is the signed-out screen's. */
const watch = (target: Page, name: string) =>
  watchPage(target, name, problems, expectedRefusal, [401]);

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack('workspace'), openBrowser()]);
  page = browser.desktop;
  phone = browser.phone;
  watch(page, 'desktop');
  watch(phone, 'phone');
  agent = await agentOf(stack, 'Tap Concierge');
  const created = await stack.staff.providers.create({
    name: provider.name,
    email: provider.email,
    categories: ['home-services'],
  });
  provider.id = created.id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const url = (path: string) => `${stack.gateway.url}${path}`;
const heading = (target: Page, name: string | RegExp) =>
  target.getByRole('heading', { level: 1, name, exact: typeof name === 'string' });
const button = (name: string | RegExp, within: Page = page) =>
  within.getByRole('button', { name, exact: typeof name === 'string' });
const activeText = (target: Page = page) =>
  target.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

/** Opens the request's page on the desktop and waits until the page has marked it read. */
async function openRequestMarkedRead() {
  const marked = page.waitForResponse((res) => res.url().endsWith(`/${request.id}/read`));
  await page.goto(url(`/workspace/requests/${request.id}`));
  await heading(page, request.subject).waitFor();
  expect((await marked).status()).toBe(200);
}

/** axe-core finds nothing serious or critical on the page as it is now. */
async function accessible(target: Page, screen: string) {
  expect({ screen, problems: await accessibilityProblems(target) }).toEqual({
    screen,
    problems: [],
  });
}

/** The screen on the phone: readable without sideways scrolling, axe-clean, photographed. */
async function onPhone(path: string, title: string | RegExp, name: string) {
  await phone.goto(url(path));
  await heading(phone, title).waitFor();
  expect({ name, fits: await fitsWidth(phone) }).toEqual({ name, fits: true });
  await accessible(phone, `${name} (phone)`);
  await browser.shot(phone, name);
  // Leaves the page: a request page's long-poll must not outlive its screen.
  await phone.goto('about:blank');
}

/** The newest mail to the provider whose text holds `pattern`, skipping those already used. */
async function mailedLink(pattern: RegExp, what: string): Promise<{ id: string; link: string }> {
  return eventually(
    async () => {
      const found = await mail.search(`to:"${provider.email}"`);
      for (const summary of found.messages) {
        if (usedMails.has(summary.ID)) continue;
        const link = pattern.exec((await mail.message(summary.ID)).Text)?.[0];
        if (link) return { id: summary.ID, link };
      }
      return undefined;
    },
    { timeoutMs: 15_000, intervalMs: 200, what },
  );
}

const SIGN_IN_LINK = /https?:\/\/\S+\/workspace\/sign-in#token=\S+/;

/** Asks for a sign-in link on the page (by keyboard: type, Tab to the button, Enter). */
async function askForLink(target: Page) {
  await target.getByLabel('Email address').fill(provider.email);
  await target.keyboard.press('Tab');
  await expect(activeText(target)).resolves.toBe('Email me a sign-in link');
  await target.keyboard.press('Enter');
  await heading(target, 'Check your email').waitFor();
}

/** Opens the sign-in mail's link: its one button has the focus, for Enter. */
async function signInFromMail(target: Page = page): Promise<string> {
  const { id, link } = await mailedLink(SIGN_IN_LINK, 'the sign-in mail');
  usedMails.add(id);
  expect(link.startsWith(`${stack.gateway.url}/workspace/sign-in#token=hsl_`)).toBe(true);
  await target.goto(link);
  await heading(target, 'Sign in to your workspace').waitFor();
  // The token left the address bar (and the history) as soon as the page read it.
  expect(target.url()).toBe(url('/workspace/sign-in'));
  await expect(activeText(target)).resolves.toBe('Sign in');
  return link;
}

describe("the providers' workspace", () => {
  it('is served at /workspace and every page under it, with the strict CSP', async () => {
    for (const path of ['/workspace', '/workspace/requests/req_x', '/workspace/sign-in']) {
      const res = await fetch(url(path));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
          "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(await res.text()).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|style=/);
    }
  });

  it('signs in from the emailed link, once; the answer to "email me" is the same for anyone', async () => {
    // A request routed to the provider waits for it, with a message from the agent.
    const created = await agent.requests.create({
      message: 'The kitchen tap drips about once a second. Can someone fix it this week?',
      subject: request.subject,
      category: 'home-services',
      name: 'Grace Hopper',
      email: 'grace@example.com',
      contact_permission: true,
      budget_min: 80,
      budget_max: 150,
    });
    request.id = created.id;
    await stack.staff.requests.update(request.id, {
      status: 'routed',
      routing: { mode: 'direct', provider_ids: [provider.id] },
    });
    await agent.requests.sendMessage(request.id, { message: 'The tap is a single-lever mixer.' });

    // Signed out, the workspace goes to its sign-in page.
    await page.goto(url('/workspace'));
    await heading(page, 'Sign in').waitFor();
    expect(page.url()).toBe(url('/workspace/sign-in'));
    await accessible(page, 'sign-in');
    await browser.shot(page, 'sign-in');
    await onPhone('/workspace/sign-in', 'Sign in', 'sign-in');

    // An unknown address gets the very same page, and no mail.
    await phone.goto(url('/workspace/sign-in'));
    await phone.getByLabel('Email address').fill(`nobody.${suffix}@example.com`);
    await button('Email me a sign-in link', phone).click();
    await heading(phone, 'Check your email').waitFor();
    expect(await fitsWidth(phone)).toBe(true);
    await browser.shot(phone, 'check-email');

    await askForLink(page);
    await accessible(page, 'check-email');
    await browser.shot(page, 'check-email');

    const link = await signInFromMail();
    await accessible(page, 'sign-in-link');
    await browser.shot(page, 'sign-in-link');
    await page.keyboard.press('Enter');
    await heading(page, 'Inbox').waitFor();
    expect(page.url()).toBe(url('/workspace/'));
    // The session is an HttpOnly cookie: the page cannot read it.
    await expect(page.evaluate(() => document.cookie)).resolves.toBe('');
    expect((await mail.search(`to:"nobody.${suffix}@example.com"`)).messages).toEqual([]);

    // The link works once: opened again (here on the phone), it says so and offers a new one.
    await phone.goto(link);
    await heading(phone, 'Sign in to your workspace').waitFor();
    expect(await fitsWidth(phone)).toBe(true);
    await browser.shot(phone, 'sign-in-link');
    await phone.keyboard.press('Enter');
    await heading(phone, 'This sign-in link no longer works').waitFor();
    await phone.getByLabel('Email address').waitFor();
    await accessible(phone, 'sign-in-link-used (phone)');
    await browser.shot(phone, 'sign-in-link-used');
    await browser.sharePhone();
  });

  it('lists the request routed to the provider, with its unread message', async () => {
    const item = page.getByRole('listitem').filter({ hasText: request.subject });
    const sentToYou = page.getByRole('region', { name: /^Sent to you/ });
    await sentToYou.getByRole('link', { name: new RegExp(request.subject) }).waitFor();
    await expect(item.textContent()).resolves.toMatch(/1 unread/);
    await expect(item.textContent()).resolves.toMatch(/Waiting for proposals/);
    await expect(item.textContent()).resolves.toMatch(/Home services/);
    await expect(item.textContent()).resolves.toMatch(/Budget 80 to 150/);
    await expect(item.textContent()).resolves.toMatch(/Asked (just now|\d+ minutes? ago)/);
    await accessible(page, 'inbox');
    await browser.shot(page, 'inbox');
    await onPhone('/workspace', 'Inbox', 'inbox');

    // The mail about the routed request links straight to its page.
    const routed = await mailedLink(/https?:\/\/\S+\/workspace\/requests\/\S+/, 'the routed mail');
    expect(routed.link).toBe(url(`/workspace/requests/${request.id}`));
  });

  it('holds a conversation with the agent: sent by keyboard, replies arrive without a reload', async () => {
    // From a freshly loaded inbox by keyboard alone: the skip link, then the newest request.
    await page.goto(url('/workspace'));
    await heading(page, 'Inbox').waitFor();
    // The list comes after the heading: the keys below must find it there (a slow machine
    // tabbed past an empty main back to the skip link).
    await page.getByRole('link', { name: new RegExp(request.subject) }).waitFor();
    await page.keyboard.press('Tab');
    await expect(activeText()).resolves.toBe('Skip to the content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(activeText()).resolves.toMatch(new RegExp(`^${request.subject}`));
    await page.keyboard.press('Enter');
    await heading(page, request.subject).waitFor();
    expect(page.url()).toBe(url(`/workspace/requests/${request.id}`));
    const conversation = page.getByRole('region', { name: 'Conversation' });
    await conversation.getByText('The tap is a single-lever mixer.').waitFor();
    await expect(conversation.textContent()).resolves.toMatch(/Grace Hopper’s assistant/);
    // The customer allowed contact: the address is shown.
    await page.getByRole('link', { name: 'grace@example.com' }).waitFor();

    // Opening it marked it read.
    await eventually(
      async () => {
        const counts = await page.evaluate(async () => {
          const res = await fetch('/v1/provider/requests');
          return ((await res.json()) as { data: { unread_messages: number | null }[] }).data;
        });
        return counts[0]?.unread_messages === 0 ? true : undefined;
      },
      { what: 'the request marked read' },
    );

    // A marker that a page load would wipe out.
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    await page.getByLabel('Your message').fill('I can come on Thursday at 9. Is that all right?');
    // Past the file input (files are optional) to the send button.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('type'))).resolves.toBe(
      'file',
    );
    await page.keyboard.press('Tab');
    await expect(activeText()).resolves.toBe('Send message');
    await page.keyboard.press('Enter');
    await conversation.getByText('I can come on Thursday at 9. Is that all right?').waitFor();
    await expect(page.getByLabel('Your message').inputValue()).resolves.toBe('');
    await expect(
      conversation.getByRole('listitem').filter({ hasText: 'Thursday at 9' }).textContent(),
    ).resolves.toMatch(/^You/);

    await agent.requests.sendMessage(request.id, { message: 'Thursday at 9 is perfect.' });
    await conversation.getByText('Thursday at 9 is perfect.').waitFor({ timeout: 10_000 });
    await expect(
      page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed),
    ).resolves.toBe(true);

    // Ctrl+Enter sends as well; pressed twice before the first send is answered, it sends once.
    let posts = 0;
    const countPosts = (sent: { method(): string; url(): string }) => {
      if (sent.method() === 'POST' && sent.url().endsWith(`/${request.id}/messages`)) posts += 1;
    };
    page.on('request', countPosts);
    await page.getByLabel('Your message').fill('See you then.');
    await page.keyboard.press('Control+Enter');
    await page.keyboard.press('Control+Enter');
    await conversation.getByText('See you then.').waitFor();
    await expect(page.getByLabel('Your message').inputValue()).resolves.toBe('');
    page.off('request', countPosts);
    expect(posts).toBe(1);

    // Written on another device (here with the provider's key): it arrives as the provider's own.
    const { api_key: apiKey } = await stack.staff.providers.createKey(provider.id);
    const elsewhere = createProviderClient({ baseUrl: stack.gateway.url, apiKey });
    await elsewhere.requests.sendMessage(request.id, { message: 'I will bring a new cartridge.' });
    const byline = (text: string) =>
      conversation.getByRole('listitem').filter({ hasText: text }).textContent();
    await conversation.getByText('I will bring a new cartridge.').waitFor({ timeout: 10_000 });
    await expect(byline('new cartridge')).resolves.toMatch(/^You/);
    // Read again from the server, what the provider wrote is still its own, from either place.
    await page.reload();
    await conversation.getByText('I will bring a new cartridge.').waitFor();
    await expect(byline('Is that all right?')).resolves.toMatch(/^You/);
    await expect(byline('new cartridge')).resolves.toMatch(/^You/);
    await expect(byline('is perfect')).resolves.toMatch(/^Grace Hopper’s assistant/);
    await accessible(page, 'request-conversation');
    await browser.shot(page, 'request-conversation');
  });

  it('makes a proposal with a milestone plan; the agent accepts it and the job appears live', async () => {
    const area = page.getByRole('region', { name: 'Your proposal' });
    await area.getByLabel('What you will do').fill('Replace the washer and the cartridge.');
    await area.getByLabel('Price').fill('120');
    await area.getByLabel('Time needed, in days').fill('2');
    await button('Add a milestone').click();
    await area.getByLabel('Milestone 1: title').fill('Fix the tap');
    await area.getByLabel(/^Amount/).fill('120');
    await area.getByLabel('Due after, in days').fill('2');
    await button('Send proposal').click();
    await area.getByText(/Your proposal is sent/).waitFor();
    await area.getByRole('heading', { name: /Waiting for the customer/ }).waitFor();
    await expect(area.textContent()).resolves.toMatch(/expires in 14 days/);
    await accessible(page, 'request-proposal');
    await browser.shot(page, 'request-proposal');

    const [proposal] = await toArray(agent.requests.proposals.list(request.id));
    if (!proposal) throw new Error('no proposal reached the agent');
    expect(proposal).toMatchObject({ amount: 120, currency: 'USD', estimated_days: 2 });
    await agent.requests.proposals.accept(request.id, proposal.id);
    await area.getByRole('heading', { name: /Accepted/ }).waitFor({ timeout: 10_000 });
    const job = page.getByRole('region', { name: 'The job' });
    await job.getByRole('heading', { name: '1. Fix the tap' }).waitFor({ timeout: 10_000 });
    await expect(job.textContent()).resolves.toMatch(/due in 2 days/);
  });

  it('submits the milestone with a link; answers a change request; the agent approves', async () => {
    const job = page.getByRole('region', { name: 'The job' });
    await job.getByText('Add your work: a link or files').click();
    await job.getByLabel('Title of your work').fill('Photo of the fixed tap');
    await job.getByLabel('Address (URL)').fill('https://photos.example.com/tap.jpg');
    await button('Add work').click();
    await job.getByRole('link', { name: 'Photo of the fixed tap' }).waitFor();

    await button('Submit for approval').click();
    await job.getByText('Waiting for the customer’s review').waitFor();
    await expect(job.textContent()).resolves.toMatch(/approved automatically in 14 days/);

    const [milestone] = await toArray(agent.requests.milestones.list(request.id));
    if (!milestone) throw new Error('no milestone');
    await agent.requests.milestones.requestChanges(request.id, milestone.id, {
      reason: 'The hot water side still drips.',
    });
    await job.getByText('The hot water side still drips.').waitFor({ timeout: 10_000 });
    await job.getByText('Changes requested', { exact: true }).waitFor();
    await accessible(page, 'request-changes');
    await browser.shot(page, 'request-changes');
    await job.getByLabel('What you changed').fill('Tightened the hot side as well.');
    await button('Submit again for approval').click();
    await job.getByText('Waiting for the customer’s review').waitFor();

    await agent.requests.milestones.approve(request.id, milestone.id);
    await job.getByText(/^Approved (just now|\d+ minutes? ago)/).waitFor({ timeout: 10_000 });
    // What the page said after the submission held only while it was true.
    await expect(job.getByText(/^Submitted\./).count()).resolves.toBe(0);
    await expect(job.textContent()).resolves.toMatch(/From before the change request/);
    await button('Complete the job').waitFor();
  });

  it('shows the payment once staff have confirmed it', async () => {
    const asked = await agent.requests.proposePayment(request.id, {
      amount: 120,
      description: 'Tap repair',
    });
    await stack.staff.paymentRequests.approve(asked.id);
    const payments = page.getByRole('region', { name: 'Payments' });
    await payments.getByText('On its way').waitFor({ timeout: 10_000 });
    const [payment] = await toArray(stack.staff.payments.list({ request_id: request.id }));
    if (!payment) throw new Error('no payment');
    await stack.staff.payments.confirm(payment.id);
    await payments.getByText('Paid to you so far: $120.00').waitFor({ timeout: 10_000 });
    await accessible(page, 'request-job');
    await browser.shot(page, 'request');
    await onPhone(`/workspace/requests/${request.id}`, request.subject, 'request');
  });

  it('shows a refund request as it opens, takes the answer, and shows the resolution', async () => {
    const opened = await agent.requests.disputes.open(request.id, {
      kind: 'refund',
      reason: 'The cabinet under the sink got wet.',
      amount: 20,
      currency: 'USD',
    });
    const disputes = page.getByRole('region', { name: 'Disputes' });
    await disputes.getByRole('heading', { name: 'Refund request for $20.00' }).waitFor({
      timeout: 10_000,
    });
    await expect(disputes.textContent()).resolves.toMatch(/Answer within 7 days \(/);
    await disputes.getByLabel('Your answer').fill('I dried it and checked the hinge: no damage.');
    await button('Add comment').click();
    await disputes.getByText('Comment added.').waitFor();
    await expect(
      disputes.getByRole('listitem').filter({ hasText: 'no damage' }).last().textContent(),
    ).resolves.toMatch(/^You/);
    await accessible(page, 'request-dispute');
    await browser.shot(page, 'request-dispute');

    await stack.staff.disputes.resolve(opened.id, {
      outcome: 'provider',
      reason: 'The photos show a dry cabinet.',
    });
    await disputes.getByText('Resolved in your favour').waitFor({ timeout: 10_000 });
    await expect(disputes.getByLabel('Your answer').count()).resolves.toBe(0);
  });

  it('says so when a request open on screen is routed to another provider', async () => {
    const other = await stack.staff.providers.create({
      name: 'Babbage Repairs',
      email: `charles.${suffix}@example.com`,
      categories: ['home-services'],
    });
    const { id } = await agent.requests.create({
      message: 'The bathroom door squeaks.',
      subject: 'Squeaky door',
      category: 'home-services',
    });
    const routeTo = (providerId: string) =>
      stack.staff.requests.update(id, {
        status: 'routed',
        routing: { mode: 'direct', provider_ids: [providerId] },
      });
    await routeTo(provider.id);
    const marked = page.waitForResponse((res) => res.url().endsWith(`/${id}/read`));
    await page.goto(url(`/workspace/requests/${id}`));
    await heading(page, 'Squeaky door').waitFor();
    await marked;
    await page.getByLabel('Your message').fill('I can look at it tomorrow.');

    goneRequest = id;
    await routeTo(other.id);
    await page
      .getByRole('alert')
      .getByText(/^This request is no longer open to you/)
      .waitFor({ timeout: 10_000 });
    // No form is left to fail; what was typed stays in view, and the way back is there.
    await expect(page.getByLabel('Your message').count()).resolves.toBe(0);
    await page.getByText('I can look at it tomorrow.').waitFor();
    await accessible(page, 'request-gone');
    await browser.shot(page, 'request-gone');
    await page.getByRole('link', { name: 'Back to your inbox' }).click();
    await heading(page, 'Inbox').waitFor();
    goneRequest = '';
    await expect(page.getByRole('link', { name: /Squeaky door/ }).count()).resolves.toBe(0);
  });

  it('turns an email kind off in the settings, and another with a mail’s unsubscribe link', async () => {
    await page
      .getByRole('navigation', { name: 'Workspace' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await heading(page, 'Settings').waitFor();
    const writes = page.getByRole('checkbox', { name: 'The customer writes to you' });
    await expect(writes.isChecked()).resolves.toBe(true);
    await writes.uncheck();
    await button('Save email choices').click();
    await page.getByText('Your email choices are saved.').waitFor();
    await accessible(page, 'settings');
    await browser.shot(page, 'settings');
    await onPhone('/workspace/settings', 'Settings', 'settings');
    await page.reload();
    await expect(
      page.getByRole('checkbox', { name: 'The customer writes to you' }).isChecked(),
    ).resolves.toBe(false);

    // The routed mail's unsubscribe link: one question, one button (focused: Enter answers).
    const { link } = await mailedLink(
      /https?:\/\/\S+\/workspace\/unsubscribe#token=\S+/,
      'an unsubscribe link',
    );
    await phone.goto(link);
    await heading(phone, /^Stop emails about “.+”\?$/).waitFor();
    expect(await fitsWidth(phone)).toBe(true);
    await accessible(phone, 'unsubscribe (phone)');
    await browser.shot(phone, 'unsubscribe');
    await phone.goto('about:blank');

    await page.goto(link);
    const question = heading(page, /^Stop emails about “(.+)”\?$/);
    await question.waitFor();
    const label = /“(.+)”/.exec((await question.textContent()) ?? '')?.[1] ?? '';
    expect(page.url()).toBe(url('/workspace/unsubscribe'));
    await accessible(page, 'unsubscribe');
    await browser.shot(page, 'unsubscribe');
    await expect(activeText()).resolves.toBe('Stop these emails');
    await page.keyboard.press('Enter');
    await heading(page, 'Done: no more of these emails').waitFor();
    await accessible(page, 'unsubscribe-done');
    await browser.shot(page, 'unsubscribe-done');
    await page.getByRole('link', { name: 'Change your email settings' }).click();
    await heading(page, 'Settings').waitFor();
    await expect(page.getByRole('checkbox', { name: label }).isChecked()).resolves.toBe(false);
  });

  it('goes on in a tab after signing in again in another: the message is sent, not refused', async () => {
    // Once the page has marked the request read, its only calls are the long-poll's and ours.
    await openRequestMarkedRead();
    const text = 'Could you send a photo of the cabinet as well?';
    await page.getByLabel('Your message').fill(text);

    // A second tab of the same browser signs in from a new link: the cookie both tabs send is
    // now another session's, whose CSRF token the first tab has never seen.
    const other = await page.context().newPage();
    watch(other, 'second tab');
    const asked = await fetch(url('/v1/workspace/sign-in'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: provider.email }),
    });
    expect(asked.status).toBe(202);
    await signInFromMail(other);
    await other.keyboard.press('Enter');
    await heading(other, 'Inbox').waitFor();
    await other.close();

    csrfRefusalExpected = true;
    const refused = page.waitForResponse(
      (res) => res.url().endsWith(`/${request.id}/messages`) && res.status() === 403,
    );
    const sent = page.waitForResponse(
      (res) => res.url().endsWith(`/${request.id}/messages`) && res.status() === 201,
    );
    await button('Send message').click();
    await refused;
    await sent;
    csrfRefusalExpected = false;
    const conversation = page.getByRole('region', { name: 'Conversation' });
    await conversation.getByText(text).waitFor();
    await expect(page.getByLabel('Your message').inputValue()).resolves.toBe('');
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
  });

  it('signs out from the settings, forgetting the drafts kept in the tab, in every tab', async () => {
    // Another tab of the same browser, with a draft of its own.
    const second = await page.context().newPage();
    watch(second, 'second tab');
    await second.goto(url(`/workspace/requests/${request.id}`));
    await second.getByLabel('Your message').fill('Another draft for nobody else to see.');

    await page.goto(url(`/workspace/requests/${request.id}`));
    await page.getByLabel('Your message').fill('A draft for nobody else to see.');
    await page
      .getByRole('navigation', { name: 'Workspace' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await button('Sign out').click();
    await heading(page, 'Sign in').waitFor();
    await page.getByText('You signed out.').waitFor();
    const drafts = (target: Page) =>
      target.evaluate(() => Object.keys(sessionStorage).filter((key) => key.includes('.draft.')));
    await expect(drafts(page)).resolves.toEqual([]);
    // The other tab leaves as well: on a shared computer, no tab keeps the provider's work open.
    await heading(second, 'Sign in').waitFor();
    await second.getByText('You signed out in another tab.').waitFor();
    await expect(drafts(second)).resolves.toEqual([]);
    await second.close();
    const [session] = await toArray(stack.staff.providers.sessions(provider.id));
    expect(session).toMatchObject({ status: 'ended', ended_by: 'provider' });

    await askForLink(page);
    await signInFromMail();
    await page.keyboard.press('Enter');
    await heading(page, 'Inbox').waitFor();
  });

  it('keeps a typed message when staff end the session, and returns to it after signing in', async () => {
    // Opened, the page marks the request read: once that call is answered, the next call is
    // the long-poll's (in up to 25 s) or the send.
    await openRequestMarkedRead();
    const draft = 'I will send the invoice tomorrow.';
    await page.getByLabel('Your message').fill(draft);

    // The phone, signed in with the first session, waits on a screen that makes no more calls
    // once what it shows has loaded (its heading comes first: a busy machine answers after).
    await phone.goto(url('/workspace/settings'));
    await heading(phone, 'Settings').waitFor();
    await button('Save email choices', phone).waitFor();
    await button('Save availability and languages', phone).waitFor();

    signedOutExpected = true;
    const sessions = await toArray(
      stack.staff.providers.sessions(provider.id, { status: 'active' }),
    );
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) await stack.staff.providers.revokeSession(session.id);

    await button('Send message').click();
    await heading(page, 'Sign in').waitFor();
    await page.getByText(/^You were signed out/).waitFor();
    expect(page.url()).toBe(url('/workspace/sign-in'));
    // The heading has the focus (a screen reader hears why the screen changed), and the address
    // is filled in: Tab, Tab and Enter ask for a new link.
    await expect(activeText()).resolves.toBe('Sign in');
    await expect(page.getByLabel('Email address').inputValue()).resolves.toBe(provider.email);
    await accessible(page, 'signed-out');
    await browser.shot(page, 'signed-out');
    await phone
      .getByRole('navigation', { name: 'Workspace' })
      .getByRole('link', { name: 'Inbox' })
      .click();
    await phone.getByText(/^You were signed out/).waitFor();
    expect(await fitsWidth(phone)).toBe(true);
    await accessible(phone, 'signed-out (phone)');
    await browser.shot(phone, 'signed-out');
    await phone.goto('about:blank');

    signedOutExpected = false;
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(activeText()).resolves.toBe('Email me a sign-in link');
    await page.keyboard.press('Enter');
    await heading(page, 'Check your email').waitFor();
    // The mail's link opens in a tab of its own, as a mail program opens it; once signed in
    // there, it tells the first tab, which goes back to where it was, with the draft.
    const mailTab = await page.context().newPage();
    watch(mailTab, 'mail tab');
    await signInFromMail(mailTab);
    await mailTab.keyboard.press('Enter');
    await heading(mailTab, 'Inbox').waitFor();
    await mailTab.close();
    await heading(page, request.subject).waitFor();
    expect(page.url()).toBe(url(`/workspace/requests/${request.id}`));
    await expect(page.getByLabel('Your message').inputValue()).resolves.toBe(draft);
  });

  it('ends the session at the next call once staff suspend the provider', async () => {
    // The settings screen makes no call of its own while it is open (a request's page would:
    // its long-poll), so the next call is the click.
    const nav = page.getByRole('navigation', { name: 'Workspace' });
    await nav.getByRole('link', { name: 'Settings' }).click();
    await button('Save email choices').waitFor();
    await button('Save availability and languages').waitFor();
    await stack.staff.providers.update(provider.id, { status: 'suspended' });
    const [session] = await toArray(stack.staff.providers.sessions(provider.id));
    expect(session).toMatchObject({ status: 'ended', ended_by: 'suspension' });
    signedOutExpected = true;
    await nav.getByRole('link', { name: 'Inbox' }).click();
    await heading(page, 'Sign in').waitFor({ timeout: 10_000 });
    await page.getByText(/^You were signed out/).waitFor();
  });

  it('saw no script error, console error or failed call on the way', () => {
    expect(problems).toEqual([]);
  });
});
