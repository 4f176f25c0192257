import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createProviderClient, unwrap, type HandoffClient } from '@handoff/sdk';
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

// Automatic routing in the providers' workspace, in a real Chromium against the real stack: staff
// create the one provider of a category, the agent's requests in it are offered to that
// provider with no staff call, and the provider answers each offer on its screen: accepts one,
// declines one with a reason, finds one already answered elsewhere; then sets itself away.

let stack: Stack;
let browser: Browser;
let page: Page;
let phone: Page;
let agent: HandoffClient;
const problems: string[] = [];
/** Requests the provider declined: the page's calls about them are refused (404) from then on. */
const declined = new Set<string>();
/** While the page answers an offer already answered elsewhere: that answer is refused (409). */
let refusalExpected = false;

const suffix = randomBytes(4).toString('hex');
/** The stack is this file's own (its own databases): no other provider works in the category. */
const category = 'home-services';
const provider = { id: '', name: 'Mosaic Tiling', email: `tiles.${suffix}@example.com` };
const mail = testMail();
/** The response window staff give the category's offers. */
const WINDOW_SECONDS = 2 * 60 * 60;

function expectedRefusal(status: number, url: string): boolean {
  if (status === 401) return url.includes('/v1/workspace/session');
  if (status === 404)
    return [...declined].some((id) => url.includes(`/v1/provider/requests/${id}`));
  if (status === 409) return refusalExpected && url.includes('/offer/accept');
  return false;
}

/** Watches a page for what must never happen: script errors, console errors, failed calls. */
const watch = (target: Page, name: string) => watchPage(target, name, problems, expectedRefusal);

const url = (path: string) => `${stack.gateway.url}${path}`;
const heading = (target: Page, name: string | RegExp) =>
  target.getByRole('heading', { level: 1, name, exact: typeof name === 'string' });
const button = (name: string | RegExp, within: Page = page) =>
  within.getByRole('button', { name, exact: typeof name === 'string' });
const activeText = (target: Page = page) =>
  target.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
const activeLabel = (target: Page = page) =>
  target.evaluate(
    () => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent,
  );

async function accessible(target: Page, screen: string) {
  expect({ screen, problems: await accessibilityProblems(target) }).toEqual({
    screen,
    problems: [],
  });
}

/** The screen on the phone: readable without sideways scrolling, axe-clean, photographed. */
async function onPhone(path: string, title: string | RegExp, name: string, ready?: string) {
  await phone.goto(url(path));
  await heading(phone, title).waitFor();
  if (ready) await phone.getByText(ready, { exact: false }).first().waitFor();
  expect({ name, fits: await fitsWidth(phone) }).toEqual({ name, fits: true });
  await accessible(phone, `${name} (phone)`);
  await browser.shot(phone, name);
  await phone.goto('about:blank');
}

/** The agent asks for work in the provider's category; the rules offer it, with no staff call. */
async function offeredRequest(subject: string, message: string) {
  const created = await agent.requests.create({ subject, message, category, language: 'en' });
  await eventually(
    async () => {
      const seen = await stack.staff.requests.get(created.id);
      return seen.automatic_routing.state === 'offered' ? true : undefined;
    },
    { timeoutMs: 10_000, what: `the offer of “${subject}”` },
  );
  return created.id;
}

/** Signs the desktop page in from the emailed link (and the phone with the same session). */
async function signIn() {
  const asked = await fetch(url('/v1/workspace/sign-in'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: provider.email }),
  });
  expect(asked.status).toBe(202);
  const link = await eventually(
    async () => {
      const found = await mail.search(`to:"${provider.email}"`);
      for (const summary of found.messages) {
        const text = (await mail.message(summary.ID)).Text;
        const match = /https?:\/\/\S+\/workspace\/sign-in#token=\S+/.exec(text)?.[0];
        if (match) return match;
      }
      return undefined;
    },
    { timeoutMs: 15_000, intervalMs: 200, what: 'the sign-in mail' },
  );
  await page.goto(link);
  await heading(page, 'Sign in to your workspace').waitFor();
  await page.keyboard.press('Enter');
  await heading(page, 'Inbox').waitFor();
  await browser.sharePhone();
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack('offers'), openBrowser()]);
  page = browser.desktop;
  phone = browser.phone;
  watch(page, 'desktop');
  watch(phone, 'phone');
  agent = await agentOf(stack, 'Tile Finder');
  await unwrap(
    stack.staff.api.PATCH('/v1/staff/routing/categories/{category}', {
      params: { path: { category } },
      body: { response_seconds: WINDOW_SECONDS },
    }),
  );
  const created = await stack.staff.providers.create({
    name: provider.name,
    email: provider.email,
    categories: [category],
  });
  provider.id = created.id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const TIME_LEFT = /answer within (2 hours|1 hour \d+ minutes) \(/;
const requests = { accepted: '', declined: '', answeredElsewhere: '' };

describe('offers in the providers’ workspace', () => {
  it('shows an offer apart in the inbox, with the time left to answer', async () => {
    requests.accepted = await offeredRequest(
      'Retile the bathroom floor',
      'About 6 square metres of floor tiles, some cracked. Can you do it next week?',
    );
    await signIn();
    const offers = page.getByRole('region', { name: /^Offered to you: waiting for your answer/ });
    const item = offers.getByRole('listitem').filter({ hasText: 'Retile the bathroom floor' });
    await item.waitFor();
    await expect(item.textContent()).resolves.toMatch(
      /^Retile the bathroom floorOffered to you — /,
    );
    await expect(item.textContent()).resolves.toMatch(TIME_LEFT);
    await expect(item.textContent()).resolves.toMatch(/In English/);
    // Apart from what was sent to the provider otherwise.
    await expect(
      page
        .getByRole('region', { name: /^Sent to you/ })
        .getByRole('listitem')
        .count(),
    ).resolves.toBe(0);
    await accessible(page, 'inbox-offer');
    await browser.shot(page, 'inbox-offer');
    await onPhone('/workspace', 'Inbox', 'inbox-offer', 'answer within');
  });

  it('accepts an offer by keyboard; the conversation and the proposal follow', async () => {
    await page.getByRole('link', { name: /Retile the bathroom floor/ }).click();
    await heading(page, 'Retile the bathroom floor').waitFor();
    const panel = page.getByRole('region', { name: 'Offered to you' });
    await expect(panel.textContent()).resolves.toMatch(TIME_LEFT);
    // Nothing to write before the answer: the conversation follows the acceptance.
    await expect(page.getByLabel('Your message').count()).resolves.toBe(0);
    await accessible(page, 'request-offer');
    await browser.shot(page, 'request-offer');
    await onPhone(
      `/workspace/requests/${requests.accepted}`,
      'Retile the bathroom floor',
      'request-offer',
      'answer within',
    );

    // The heading has the focus (the screen changed inside the app): Tab reaches "Accept".
    await page.keyboard.press('Tab');
    await expect(activeText()).resolves.toBe('Accept');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: /^You accepted this request/ })
      .waitFor();
    // The focus stays where the answer was: on what the page now says.
    await expect(activeText()).resolves.toMatch(/^You accepted this request/);
    await page.getByLabel('Your message').waitFor();
    await page.getByRole('region', { name: 'Your proposal' }).waitFor();
    await expect(page.getByRole('region', { name: 'Offered to you' }).count()).resolves.toBe(0);
    const seen = await stack.staff.requests.get(requests.accepted);
    expect(seen.automatic_routing.state).toBe('accepted');
    expect(seen.automatic_routing.offers.at(-1)).toMatchObject({
      provider_id: provider.id,
      status: 'accepted',
    });
    await accessible(page, 'request-accepted');
    await browser.shot(page, 'request-accepted');

    await page.getByRole('link', { name: 'Inbox' }).first().click();
    const item = page.getByRole('listitem').filter({ hasText: 'Retile the bathroom floor' });
    await expect(item.textContent()).resolves.toMatch(/You accepted this request/);
  });

  it('declines an offer with a reason, which a reload does not lose', async () => {
    requests.declined = await offeredRequest(
      'Tile a garden path',
      'Natural stone for a 12 metre path.',
    );
    await page.reload();
    await page.getByRole('link', { name: /Tile a garden path/ }).click();
    await heading(page, 'Tile a garden path').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(activeText()).resolves.toBe('Decline');
    await page.keyboard.press('Enter');
    // The reason takes the focus, then the confirmation is a Tab away.
    await expect(activeLabel()).resolves.toMatch(/^Why you decline \(optional\)/);
    const reason = 'I do not work with natural stone.';
    await page.keyboard.type(reason);
    await accessible(page, 'request-decline');
    await browser.shot(page, 'request-decline');

    await page.reload();
    await heading(page, 'Tile a garden path').waitFor();
    await expect(page.getByLabel(/^Why you decline/).inputValue()).resolves.toBe(reason);
    declined.add(requests.declined);
    await button('Yes, decline it').click();
    await page.getByText(/^You declined this request/).waitFor();
    await page.getByRole('link', { name: 'Back to your inbox' }).waitFor();
    const seen = await stack.staff.requests.get(requests.declined);
    expect(seen.automatic_routing.offers.at(-1)).toMatchObject({
      provider_id: provider.id,
      status: 'declined',
      reason,
    });
    await accessible(page, 'request-declined');
    await browser.shot(page, 'request-declined');
    const drafts = await page.evaluate(() =>
      Object.keys(sessionStorage).filter((key) => key.includes('.draft.')),
    );
    expect(drafts).toEqual([]);
    await page.getByRole('link', { name: 'Back to your inbox' }).click();
    await heading(page, 'Inbox').waitFor();
    await expect(page.getByRole('link', { name: /Tile a garden path/ }).count()).resolves.toBe(0);
  });

  it('says so in plain words when an offer was answered meanwhile, and shows where it stands', async () => {
    requests.answeredElsewhere = await offeredRequest(
      'Regrout the kitchen splashback',
      'The grout is black with mould.',
    );
    // The page's live feed is held, so that it cannot show the change before the click does.
    await page.route('**/v1/provider/requests/*/events*', () => undefined);
    await page.goto(url(`/workspace/requests/${requests.answeredElsewhere}`));
    await heading(page, 'Regrout the kitchen splashback').waitFor();
    await button('Accept').waitFor();
    const { api_key: apiKey } = await stack.staff.providers.createKey(provider.id);
    const elsewhere = createProviderClient({ baseUrl: stack.gateway.url, apiKey });
    await unwrap(
      elsewhere.api.POST('/v1/provider/requests/{id}/offer/accept', {
        params: { path: { id: requests.answeredElsewhere } },
      }),
    );
    refusalExpected = true;
    await button('Accept').click();
    await page
      .getByRole('alert')
      .getByText(/^This offer no longer waits for your answer/)
      .waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^You accepted this request/ })
      .waitFor();
    // The buttons went: the focus is on what the page now says, the refusal's words with it.
    await expect(activeText()).resolves.toMatch(
      /^You accepted this request.*This offer no longer waits for your answer/,
    );
    refusalExpected = false;
    await page.unroute('**/v1/provider/requests/*/events*');
    await page.goto('about:blank');
  });

  it('sets the provider away and its languages in the settings, beside its load', async () => {
    await page.goto(url('/workspace/settings'));
    await heading(page, 'Settings').waitFor();
    const area = page.getByRole('region', { name: 'New requests' });
    await area.getByText(/^You hold 2 requests now/).waitFor();
    await expect(area.textContent()).resolves.toMatch(/of at most 3 at a time/);
    await expect(
      area.getByRole('radio', { name: 'Available for new requests' }).isChecked(),
    ).resolves.toBe(true);
    await area.getByRole('radio', { name: 'Away' }).check();
    await area.getByLabel('Languages you work in').fill('en, pt-br, English');
    await button('Save availability and languages').click();
    await area
      .getByRole('alert')
      .getByText(/^“English” is not a language tag/)
      .waitFor();
    await area.getByLabel('Languages you work in').fill('en, pt-br');
    await area.getByText('That is: English, Brazilian Portuguese.').waitFor();
    await button('Save availability and languages').click();
    await area.getByText(/^Saved\. You are away/).waitFor();
    await accessible(page, 'settings-availability');
    await browser.shot(page, 'settings-availability');
    await onPhone('/workspace/settings', 'Settings', 'settings-availability', 'You hold');

    const me = await page.evaluate(async () => (await fetch('/v1/provider/me')).json());
    expect(me).toMatchObject({ availability: 'away', languages: ['en', 'pt-BR'], load: 2 });
    await page.reload();
    await expect(
      page
        .getByRole('region', { name: 'New requests' })
        .getByRole('radio', { name: 'Away' })
        .isChecked(),
    ).resolves.toBe(true);
    await expect(page.getByLabel('Languages you work in').inputValue()).resolves.toBe('en, pt-BR');
  });

  it('saw no script error, console error or failed call on the way', () => {
    expect(problems).toEqual([]);
  });
});
