import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, startReceiver, type Receiver } from '@handoff/testkit';
import type { Page } from 'playwright-core';
import { apply, approveAndClaim, http } from '@handoff/web-ui/testing';
import { Webhook } from 'standardwebhooks';
import { openBrowser, type Browser } from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';

// The console's Webhooks screen in a real Chromium against the real stack, with a webhook
// receiver in this process: staff rotate an endpoint's secret, and what the dispatcher signs
// next verifies with the secret the console showed once.

interface Delivery {
  id: string;
  headers: Record<string, string>;
  body: string;
}

let stack: Stack;
let browser: Browser;
let page: Page;
let receiver: Receiver;
let receiverUrl = '';
const deliveries: Delivery[] = [];
const problems: string[] = [];

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  receiver = await startReceiver(
    ({ headers, body }) => {
      const header = (name: string) => String(headers[name] ?? '');
      deliveries.push({
        id: header('webhook-id'),
        headers: {
          'webhook-id': header('webhook-id'),
          'webhook-timestamp': header('webhook-timestamp'),
          'webhook-signature': header('webhook-signature'),
        },
        body,
      });
    },
    { status: 200 },
  );
  receiverUrl = `${receiver.url}/hooks`;
  stack = await startStack('console_hooks');
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (request.method() !== 'GET' && request.url().includes('/v1/staff/')) {
      if (!request.headers()['idempotency-key'])
        problems.push(`no Idempotency-Key: ${request.url()}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.close();
});

const button = (name: string) => page.getByRole('button', { name, exact: true });

/** An integration with webhooks:manage, as an agent's developer gets one. */
async function integration(): Promise<{ id: string; key: string }> {
  const scopes = ['requests:create', 'webhooks:manage'];
  const application = await apply(stack, 'Hook Receiver', scopes, 'Listens for request events.');
  const { integrationId, key } = await approveAndClaim(stack, application, scopes);
  return { id: integrationId, key };
}

/** A new request of the integration, and the request.created delivery it causes. */
async function delivered(key: string): Promise<Delivery> {
  const created = await http(stack, '/v1/ai-to-human-request', {
    token: key,
    body: { message: 'Please find me a plumber for a dripping bathroom tap.' },
  });
  expect(created.status).toBe(201);
  return eventually(() => deliveries.find((d) => d.body.includes(String(created.body.id))), {
    timeoutMs: 15_000,
    what: 'the request.created delivery',
  });
}

const verify = (secret: string, d: Delivery) => new Webhook(secret).verify(d.body, d.headers);

describe('the Webhooks screen', () => {
  it("rotates an endpoint's secret: the next delivery verifies with the new one, shown once", async () => {
    const agent = await integration();
    const registered = await http(stack, '/v1/webhook-endpoints', {
      token: agent.key,
      body: { url: receiverUrl, event_types: ['request.created'] },
    });
    expect(registered.status).toBe(201);
    const endpointId = String(registered.body.id);
    const oldSecret = String(registered.body.secret);
    const first = await delivered(agent.key);
    expect(() => verify(oldSecret, first)).not.toThrow();

    await page.goto(`${stack.gateway.url}/console`);
    await page.getByLabel('Staff token (JWT)').fill(stack.staff);
    await button('Sign in').click();
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Webhooks', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByLabel('Integration id').fill(agent.id);
    // By keyboard: Enter in the field opens the integration.
    await page.getByLabel('Integration id').press('Enter');
    const row = page.getByRole('row').filter({ hasText: endpointId });
    await expect(row.textContent()).resolves.toContain(receiverUrl);
    expect(await row.textContent()).toContain('request.created');

    await button(`Attempts of ${endpointId}`).click();
    const attempt = page
      .getByRole('table', { name: `Recent attempts to ${endpointId}` })
      .getByRole('row')
      .filter({ hasText: first.id });
    await expect(attempt.textContent()).resolves.toMatch(/request\.created.*200/);

    // Rotation asks first; Cancel changes nothing.
    await button(`Rotate secret of ${endpointId}`).click();
    await button('Cancel').click();
    expect(await page.getByTestId('once-secret').count()).toBe(0);
    await button(`Rotate secret of ${endpointId}`).click();
    await button('Confirm').click();
    await page
      .getByRole('status')
      .filter({ hasText: `Rotated the secret of ${endpointId}` })
      .waitFor();
    const newSecret = await page.getByTestId('once-secret').inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);

    // The next delivery verifies with the new secret (and, in the grace period, the old one).
    const next = await delivered(agent.key);
    expect(verify(newSecret, next)).toMatchObject({ type: 'request.created' });
    expect(() => verify(oldSecret, next)).not.toThrow();

    // Redelivery of the first event: same webhook-id, signed with the new secret too.
    await page.getByLabel('Event id to redeliver').fill(first.id);
    await button('Redeliver').click();
    await page
      .getByRole('status')
      .filter({ hasText: `Redelivering ${first.id} to 1 endpoint(s).` })
      .waitFor();
    const again = await eventually(() => deliveries.filter((d) => d.id === first.id)[1], {
      timeoutMs: 15_000,
      what: 'the redelivery',
    });
    expect(verify(newSecret, again)).toEqual(JSON.parse(first.body));
    await browser.shot('webhooks');

    // Shown once: dismissed, it is gone from the page.
    await button('I have copied it; hide it').click();
    expect(await page.getByTestId('once-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(newSecret);
    expect(problems).toEqual([]);
  });
});
