import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apply, approveAndClaim, http } from '@handoff/web-ui/testing';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { fitsWidth, openBrowser, type Browser } from './support/browser.ts';
import { providerOf, startStack, type Stack } from './support/stack.ts';

// A request's files in the staff console, in a real Chromium against the real stack: what the
// agent attached to a message and what the provider handed in on a milestone, each with who
// uploaded it and a download link whose bytes are compared.

const SCREENS = '/tmp/screens-35';
const SCOPES = ['requests:create', 'requests:read', 'proposals:accept', 'messages:create'];

let stack: Stack;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  stack = await startStack('console_files');
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  mkdirSync(SCREENS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Uploads `bytes` to `path` with `headers`: the file's id. */
async function upload(path: string, headers: Record<string, string>, bytes: Buffer) {
  const res = await fetch(`${stack.gateway.url}${path}`, {
    method: 'POST',
    headers,
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(201);
  return String(((await res.json()) as { id: string }).id);
}

describe("a request's files in the console", () => {
  const brief = Buffer.from('Wall: 2.4 m x 1.8 m.\nTiles: white, 20 cm.\n');
  const report = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3000)]);
  const longName = `final-report-of-the-bathroom-retiling-${'y'.repeat(90)}.pdf`;
  let requestId = '';

  it('lists the conversation’s and the deliverables’ files, with who uploaded them', async () => {
    const { key } = await approveAndClaim(stack, await apply(stack, 'File Maker', SCOPES), SCOPES);
    const provider = await providerOf(stack, 'Tess the Tiler', 'tess@example.com');
    const created = await http(stack, '/v1/ai-to-human-request', {
      token: key,
      body: { message: 'Retile the bathroom wall.', category: 'home-services' },
    });
    requestId = String(created.body.id);
    const asAgent = {
      Authorization: `Bearer ${key}`,
      'X-Service-Request-Token': String(created.body.request_token),
    };
    await http(stack, `/v1/staff/requests/${requestId}`, {
      method: 'PATCH',
      token: stack.staff,
      body: { status: 'routed', routing: { mode: 'direct', provider_ids: [provider.id] } },
    });
    const briefId = await upload(
      `/v1/request/${requestId}/files?filename=brief.txt`,
      { ...asAgent, 'Content-Type': 'text/plain' },
      brief,
    );
    expect(
      await http(stack, `/v1/request/${requestId}/message`, {
        token: key,
        headers: { 'X-Service-Request-Token': asAgent['X-Service-Request-Token'] },
        body: { message: 'The brief is attached.', attachments: [briefId] },
      }),
    ).toMatchObject({ status: 201 });
    const proposal = await http(stack, `/v1/provider/requests/${requestId}/proposals`, {
      token: provider.key,
      body: {
        message: 'Two days.',
        amount: 300,
        currency: 'USD',
        estimated_days: 2,
        milestones: [{ title: 'Retile', amount: 300, due_in_days: 2 }],
      },
    });
    await http(stack, `/v1/request/${requestId}/proposals/${String(proposal.body.id)}/accept`, {
      method: 'POST',
      token: key,
      headers: { 'X-Service-Request-Token': asAgent['X-Service-Request-Token'] },
    });
    const milestones = await http(stack, `/v1/provider/milestones?request_id=${requestId}`, {
      token: provider.key,
    });
    const milestoneId = String((milestones.body.data as { id: string }[])[0]?.id);
    const reportId = await upload(
      `/v1/provider/milestones/${milestoneId}/files?filename=${longName}`,
      { Authorization: `Bearer ${provider.key}`, 'Content-Type': 'application/pdf' },
      report,
    );
    expect(
      await http(stack, `/v1/provider/milestones/${milestoneId}/deliverables`, {
        token: provider.key,
        body: { title: 'The report', files: [reportId] },
      }),
    ).toMatchObject({ status: 201 });

    await page.goto(`${stack.gateway.url}/console`);
    await page.getByLabel('Staff token (JWT)').fill(stack.staff);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Request', exact: true })
      .click();
    await page.getByLabel('Request id').fill(requestId);
    await page.getByRole('button', { name: 'Open', exact: true }).click();

    const files = page.getByRole('region', { name: 'Files of the request' });
    const row = (name: string) => files.getByRole('row').filter({ hasText: name });
    await row('brief.txt').waitFor();
    await expect(row('brief.txt').textContent()).resolves.toMatch(
      /brief\.txt.*42 B.*Text.*Agent \(customer side\).*Message/,
    );
    await expect(row('The report').count()).resolves.toBe(0);
    await expect(row(longName).textContent()).resolves.toMatch(
      new RegExp(`2\\.9 KB.*PDF.*Provider.*Deliverable ${milestoneId}`),
    );
    for (const [name, bytes] of [
      ['brief.txt', brief],
      [longName, report],
    ] as const) {
      const link = files.getByRole('link', { name });
      await expect(link.getAttribute('download')).resolves.toBe(name);
      await expect(link.getAttribute('rel')).resolves.toBe('noopener');
      await expect(link.getAttribute('title')).resolves.toBe(name);
      const res = await fetch(new URL(String(await link.getAttribute('href')), stack.gateway.url));
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    }
    // Reachable by keyboard: the table scrolls under focus, and its links are in the tab order.
    await files.focus();
    await page.keyboard.press('Tab');
    await expect(
      page.evaluate(() => document.activeElement?.getAttribute('download')),
    ).resolves.toBe(longName);
    await page.getByRole('heading', { name: 'Files' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/console-files-desktop.png` });
  });

  it('fits a 360 px phone: the table scrolls on its own', async () => {
    const phone = await browser.phone();
    await phone.setViewportSize({ width: 360, height: 780 });
    await phone.goto(`${stack.gateway.url}/console`);
    await phone.getByLabel('Staff token (JWT)').fill(stack.staff);
    await phone.getByRole('button', { name: 'Sign in', exact: true }).click();
    await phone
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Request', exact: true })
      .click();
    await phone.getByLabel('Request id').fill(requestId);
    await phone.getByRole('button', { name: 'Open', exact: true }).click();
    await phone
      .getByRole('region', { name: 'Files of the request' })
      .getByRole('link', { name: 'brief.txt' })
      .waitFor();
    await phone.getByRole('heading', { name: 'Files' }).scrollIntoViewIfNeeded();
    expect(await fitsWidth(phone)).toBe(true);
    await phone.screenshot({ path: `${SCREENS}/console-files-360.png` });
  });

  it('saw no script error or failed call', () => {
    expect(problems).toEqual([]);
  });
});
