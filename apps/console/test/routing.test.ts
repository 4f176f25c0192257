import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@handoff/testkit';
import { apply, approveAndClaim, http } from '@handoff/web-ui/testing';
import type { Locator, Page } from 'playwright-core';
import { fitsWidth, openBrowser, type Browser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';

// Routing staff's screens in a real Chromium against the real stack: the Requests screen, a
// request's routing panel (why the rules chose, an override, pausing the category), the routing
// categories and the providers' routing profiles; at a laptop's width and a phone's.

let stack: Stack;
let browser: Browser;
let page: Page;
const problems: string[] = [];

/** A category nothing else of this file's fresh stack uses. */
const category = 'design';
const names = ['Ana Gardens', 'Bo Hedges'] as const;
const providerIds = new Map<string, string>();
let agentKey = '';
let requestId = '';
/** The provider the rules offered the request to, and the other one. */
let offered = '';
let other = '';

const watch = (target: Page) => {
  target.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  target.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  target.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
};

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  watch(page);
  stack = await startStack('console_routing');
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const button = (name: string | RegExp, within: Page | Locator = page) =>
  within.getByRole('button', { name, exact: typeof name === 'string' });
const status = (text: string | RegExp, on: Page = page) =>
  on.getByRole('status').filter({ hasText: text }).waitFor();
/** Waits until `target` shows `text` (after a reload the console makes on its own). */
const shows = (target: Locator, text: RegExp) => target.filter({ hasText: text }).waitFor();
const screen = (name: string, on: Page = page) =>
  on
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('button', { name, exact: true })
    .click();

async function signIn(on: Page) {
  await on.goto(`${stack.gateway.url}/console`);
  await on.getByLabel('Staff token (JWT)').fill(stack.staff);
  await button('Sign in', on).click();
  await on.getByRole('heading', { name: 'Queues' }).waitFor();
}

/** The request as staff's API shows it. */
const staffRequest = async (id: string) =>
  (await http(stack, `/v1/staff/requests/${id}`, { token: stack.staff })).body as {
    automatic_routing: {
      state: string;
      offers: { provider_id: string; status: string; by: string }[];
      queue_reason: string | null;
    };
  };

/** The Requests screen, filtered to this run's category by typing it and pressing Enter. */
async function requestsOfCategory(on: Page) {
  await screen('Requests', on);
  const field = on.getByRole('form', { name: 'Filters' }).getByLabel('Category');
  await field.fill(category);
  await field.press('Enter');
}

describe('routing in the staff console', () => {
  it('sets the scene: two providers in a fresh category, a request an agent creates there', async () => {
    // A long answer window, so that the offer is still waiting while the test looks at it.
    expect(
      await http(stack, `/v1/staff/routing/categories/${category}`, {
        method: 'PATCH',
        token: stack.staff,
        body: { response_seconds: 2 * 60 * 60 },
      }),
    ).toMatchObject({ status: 200 });
    for (const name of names) {
      const created = await http(stack, '/v1/staff/providers', {
        token: stack.staff,
        body: {
          name,
          email: `${name.split(' ')[0]?.toLowerCase()}@example.com`,
          categories: [category],
        },
      });
      expect(created.status).toBe(201);
      providerIds.set(String(created.body.id), name);
    }
    const scopes = ['requests:create', 'requests:read'];
    ({ key: agentKey } = await approveAndClaim(
      stack,
      await apply(stack, 'Garden Bot', scopes),
      scopes,
    ));
    const created = await http(stack, '/v1/ai-to-human-request', {
      token: agentKey,
      body: {
        message: 'Our hedge has grown over the path; please trim it before Saturday.',
        subject: 'Trim an overgrown hedge',
        category,
        name: 'Alan Turing',
        email: 'alan@example.com',
      },
    });
    expect(created.status).toBe(201);
    requestId = String(created.body.id);
    // The rules offer it with no staff action.
    const routed = await eventually(async () => {
      const found = await staffRequest(requestId);
      return found.automatic_routing.state === 'offered' ? found : undefined;
    });
    const offer = routed.automatic_routing.offers.find((o) => o.status === 'pending');
    offered = providerIds.get(offer?.provider_id ?? '') ?? '';
    other = names.find((name) => name !== offered) ?? '';
    expect(names).toContain(offered);
  });

  it('finds the request on the Requests screen by category: offered, with the time left to answer', async () => {
    await signIn(page);
    await requestsOfCategory(page);
    const row = page
      .getByRole('list', { name: 'Requests found' })
      .getByRole('listitem')
      .filter({ hasText: 'Trim an overgrown hedge' });
    await expect(row.textContent()).resolves.toMatch(
      new RegExp(`Offered to ${offered}, answers within 1 h 5\\d min`),
    );
    await expect(row.textContent()).resolves.toContain(category);
    // The counts of the filter, as chips: one request, routed, offered.
    const chip = (group: string, name: RegExp) =>
      page.getByRole('group', { name: group }).getByRole('button', { name });
    await shows(chip('Status', /^All/), /All\s*1$/);
    await shows(chip('Status', /^Routed/), /Routed\s*1$/);
    await shows(chip('Routing', /^Offered/), /Offered\s*1$/);
    // A chip filters: nothing of this category waits for staff.
    await chip('Routing', /^Waiting for staff/).click();
    await page.getByText('No request matches these filters.').waitFor();
    await expect(chip('Routing', /^Waiting for staff/).getAttribute('aria-pressed')).resolves.toBe(
      'true',
    );
    await chip('Routing', /^All/).click();
    await row.waitFor();
    await browser.shot('requests');
  });

  it("opens the request by keyboard and shows the rules' decision with each provider's reasons", async () => {
    const row = page.getByRole('listitem').filter({ hasText: 'Trim an overgrown hedge' });
    await button('Trim an overgrown hedge', row).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Request id').inputValue()).resolves.toBe(requestId);
    await expect(page.getByTestId('routing-state').textContent()).resolves.toBe('Offered');
    const weighed = page.getByRole('region', { name: 'Providers weighed' });
    const chosen = weighed.getByRole('row').filter({ hasText: offered });
    await expect(chosen.textContent()).resolves.toMatch(/Chosen/);
    // Each candidate has its reasons in words.
    expect(await chosen.getByRole('listitem').count()).toBeGreaterThan(0);
    const offers = page.getByRole('region', { name: 'Offers' });
    await expect(
      offers.getByRole('row').filter({ hasText: offered }).textContent(),
    ).resolves.toMatch(/The rules.*Waiting for an answer.*answers within 1 h/);
    await browser.shot('request-routing');
  });

  it('keeps a reason being written while staff look elsewhere', async () => {
    const reason = page.getByLabel('Reason (required, kept in the audit log)');
    await reason.fill('The customer asked for ');
    await screen('Queues');
    await requestsOfCategory(page);
    await button('Trim an overgrown hedge').click();
    await expect(reason.inputValue()).resolves.toBe('The customer asked for ');
  });

  it('offers the request to the other provider with a reason, after confirming; the history shows both offers', async () => {
    const reason = page.getByLabel('Reason (required, kept in the audit log)');
    await reason.fill(`The customer asked for ${other}.`);
    const suggested = page.getByRole('region', { name: 'Suggested providers' });
    await button(`Offer to ${other}`, suggested).click();
    // Nothing happens before the confirmation, which takes the focus: Enter confirms.
    expect((await staffRequest(requestId)).automatic_routing.offers).toHaveLength(1);
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Yes, offer it',
    );
    await page.keyboard.press('Enter');
    await status(`Offered it to ${other}.`);
    const offers = page.getByRole('region', { name: 'Offers' });
    await shows(offers.getByRole('row').filter({ hasText: offered }), /Withdrawn/);
    await shows(offers.getByRole('row').filter({ hasText: other }), /Staff.*Waiting for an answer/);
    const after = await staffRequest(requestId);
    expect(
      after.automatic_routing.offers.map((o) => [providerIds.get(o.provider_id), o.status, o.by]),
    ).toEqual([
      [offered, 'withdrawn', 'rules'],
      [other, 'pending', 'staff'],
    ]);
    // The reason is spent: the box is empty for the next action.
    await expect(
      page.getByLabel('Reason (required, kept in the audit log)').inputValue(),
    ).resolves.toBe('');
    await browser.shot('request-override');
  });

  it('pauses automatic routing of the category from the request; a new request then waits for staff', async () => {
    const group = page.getByRole('group', {
      name: `Automatic routing of every request of ${category}`,
    });
    const pause = button(`Pause automatic routing of ${category}`, group);
    expect(await pause.isDisabled()).toBe(true);
    await group
      .getByLabel('Reason to pause it (required, kept in the audit log)')
      .fill('Storm week.');
    await pause.click();
    await button('Yes, pause it', group).click();
    await status(`Paused ${category}.`);
    await group.getByText(/Paused since .*: Storm week\./).waitFor();
    const categories = await http(stack, '/v1/staff/routing/categories', { token: stack.staff });
    expect(
      (categories.body.data as { category: string }[]).find((c) => c.category === category),
    ).toMatchObject({
      paused: true,
      pause_reason: 'Storm week.',
    });

    const created = await http(stack, '/v1/ai-to-human-request', {
      token: agentKey,
      body: { message: 'Mow the lawn, please.', category },
    });
    expect(created.status).toBe(201);
    const queued = await eventually(async () => {
      const found = await staffRequest(String(created.body.id));
      return found.automatic_routing.state === 'queued' ? found : undefined;
    });
    expect(queued.automatic_routing.queue_reason).toBe('paused');
    // The queues send staff to it on the Requests screen, the reason in words.
    await screen('Queues');
    await button(/^Requests to route/).click();
    await expect(
      page
        .getByRole('group', { name: 'Routing' })
        .getByRole('button', { name: /^Waiting for staff/ })
        .getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await expect(
      page.getByRole('listitem').filter({ hasText: 'Mow the lawn, please.' }).textContent(),
    ).resolves.toMatch(/Waiting for staff: /);
  });

  it('lists the routing categories with their counts, and changes the answer window', async () => {
    await screen('Routing categories');
    const card = page.getByRole('listitem', { name: `Category ${category}` });
    await expect(card.textContent()).resolves.toMatch(/paused/);
    await expect(card.textContent()).resolves.toMatch(/2 providers/);
    await expect(card.textContent()).resolves.toMatch(/Answer window 2 h/);
    const form = card.getByRole('form', { name: `Settings of ${category}` });
    await form.getByLabel('Answer window').fill('30');
    await form.getByLabel('Unit').selectOption('minutes');
    await button('Save settings', form).click();
    await status(`Saved the settings of ${category}.`);
    await shows(card, /Answer window 30 min/);
    await browser.shot('categories');
    const categories = await http(stack, '/v1/staff/routing/categories', { token: stack.staff });
    expect(
      (categories.body.data as { category: string }[]).find((c) => c.category === category),
    ).toMatchObject({
      response_seconds: 1800,
    });
  });

  it('onboards a provider with its routing profile, shows its load and score, and edits it', async () => {
    await screen('Providers');
    const form = page.getByRole('form', { name: 'Onboard a provider' });
    await form.getByLabel('Name').fill('Cy Lawns');
    await form.getByLabel('Email').fill('cy@example.com');
    await form.getByLabel('Categories (comma-separated)').fill(category);
    await form.getByLabel('Capacity').fill('2');
    await form.getByLabel('Languages (comma-separated)').fill('en, pt-br');
    await button('Onboard', form).click();
    await status('Onboarded Cy Lawns.');
    const card = page.getByRole('listitem').filter({ hasText: 'cy@example.com' });
    await expect(card.textContent()).resolves.toMatch(
      /Holds 0 of 2 · score 0\.\d\d · available · en, pt-BR/,
    );
    const list = await http(stack, `/v1/staff/providers?category=${category}`, {
      token: stack.staff,
    });
    const cy = (list.body.data as { id: string; name: string }[]).find(
      (p) => p.name === 'Cy Lawns',
    );
    expect(cy).toMatchObject({
      capacity: 2,
      languages: ['en', 'pt-BR'],
      availability: 'available',
    });

    await button('Profile and keys of Cy Lawns', card).click();
    const profile = card.getByRole('form', { name: 'Routing profile of Cy Lawns' });
    await profile.getByLabel('Availability').selectOption('away');
    await button('Save the routing profile', profile).click();
    await status('Saved the routing profile of Cy Lawns.');
    await shows(card, /· away ·/);
    await browser.shot('providers-routing');
    const edited = await http(stack, `/v1/staff/providers/${cy?.id ?? ''}`, { token: stack.staff });
    expect(edited.body).toMatchObject({ availability: 'away', capacity: 2 });
  });

  it('works at a phone width: the Requests screen and the routing panel need no sideways scrolling', async () => {
    const phone = await browser.phone();
    watch(phone);
    await signIn(phone);
    await requestsOfCategory(phone);
    await phone.getByRole('listitem').filter({ hasText: 'Trim an overgrown hedge' }).waitFor();
    await shows(
      phone.getByRole('group', { name: 'Routing' }).getByRole('button', { name: /^All/ }),
      /\d/,
    );
    expect(await fitsWidth(phone)).toBe(true);
    await browser.shot('requests', phone);
    await button('Trim an overgrown hedge', phone).click();
    await phone.getByRole('region', { name: 'Offers' }).waitFor();
    await phone.getByRole('region', { name: 'Suggested providers' }).waitFor();
    expect(await fitsWidth(phone)).toBe(true);
    await browser.shot('request-routing', phone);
    await screen('Routing categories', phone);
    await phone.getByRole('listitem', { name: `Category ${category}` }).waitFor();
    expect(await fitsWidth(phone)).toBe(true);
    await browser.shot('categories', phone);
  });

  it('raised no script error and met no refusal', () => {
    expect(problems).toEqual([]);
  });
});
