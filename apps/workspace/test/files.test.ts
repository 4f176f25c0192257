import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import { createProviderClient, toArray, type ProviderClient } from '@handoff/sdk';
import { eventually, testMail } from '@handoff/testkit';
import { apply, approveAndClaim, http, launchChromium } from '@handoff/web-ui/testing';
import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Browser as Chromium, Page } from 'playwright-core';
import {
  accessibilityProblems,
  fitsWidth,
  openBrowser,
  watchPage,
  type Browser,
} from './support/browser.ts';
import { startStack, type Stack } from './support/stack.ts';

// Files in the providers' workspace, in a real Chromium against the real stack: a provider
// attaches files to a message and to its work on a milestone (a real file input, each file's
// progress and error), and downloads what the agent attached; every link's bytes are compared.

const SCREENS = '/tmp/screens-35';
const CUSTOMER_SCOPES = SCOPES.filter((scope) => scope !== 'webhooks:manage');

let stack: Stack;
let browser: Browser;
let page: Page;
let narrow: Page;
let chromium: Chromium;
const problems: string[] = [];
/** The upload of a file of a type Handoff does not take: refused with 415, as the test asks. */
const expectedRefusal = (status: number, url: string) =>
  status === 415 && url.includes('/files?filename=page.html');

const suffix = randomBytes(4).toString('hex');
const provider = { id: '', email: `grace.${suffix}@example.com`, client: null as unknown };
const agent = { key: '', token: '' };
const request = { id: '', subject: 'Bathroom tiles' };
const mail = testMail();

const url = (path: string) => `${stack.gateway.url}${path}`;
/** The parties outside the browser: the gateway, and staff's token. */
const parties = () => ({ gateway: stack.gateway, staff: stack.staffToken });
const asProvider = () => provider.client as ProviderClient;
const heading = (target: Page, name: string) =>
  target.getByRole('heading', { level: 1, name, exact: true });
const conversationOf = (target: Page) => target.getByRole('region', { name: 'Conversation' });
const activeText = (target: Page = page) =>
  target.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

/** Uploads `bytes` as the agent into the request's conversation: the file's id. */
async function agentUpload(filename: string, type: string, bytes: Buffer): Promise<string> {
  const res = await fetch(url(`/v1/request/${request.id}/files?filename=${filename}`), {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${agent.key}`,
      'X-Service-Request-Token': agent.token,
      'Content-Type': type,
    },
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(201);
  return String(((await res.json()) as { id: string }).id);
}

/** The bytes a download link of the page answers, fetched from its own address. */
async function downloaded(link: ReturnType<Page['getByRole']>): Promise<Buffer> {
  const href = await link.getAttribute('href');
  if (!href) throw new Error('a file link without href');
  const res = await fetch(new URL(href, stack.gateway.url));
  expect(res.status).toBe(200);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  return Buffer.from(await res.arrayBuffer());
}

async function signIn(target: Page) {
  const asked = await http(parties(), '/v1/workspace/sign-in', { body: { email: provider.email } });
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
  await target.goto(link);
  await target.getByRole('button', { name: 'Sign in', exact: true }).click();
  await heading(target, 'Inbox').waitFor();
}

beforeAll(async () => {
  [stack, browser, chromium] = await Promise.all([
    startStack('workspace_files'),
    openBrowser(),
    launchChromium(),
  ]);
  page = browser.desktop;
  watchPage(page, 'desktop', problems, expectedRefusal, []);
  // The narrowest phone the workspace is made for.
  narrow = await (
    await chromium.newContext({ viewport: { width: 360, height: 780 }, isMobile: true })
  ).newPage();
  watchPage(narrow, '360 px', problems, expectedRefusal, []);

  const application = await apply(parties(), 'Tile Concierge', CUSTOMER_SCOPES);
  agent.key = (await approveAndClaim(parties(), application, CUSTOMER_SCOPES)).key;
  const created = await stack.staff.providers.create({
    name: 'Hopper Tiling',
    email: provider.email,
    categories: ['home-services'],
  });
  provider.id = created.id;
  const { api_key: apiKey } = await stack.staff.providers.createKey(provider.id);
  provider.client = createProviderClient({ baseUrl: stack.gateway.url, apiKey });

  // A request routed to the provider, whose proposal with one milestone the agent accepted.
  const asked = await http(parties(), '/v1/ai-to-human-request', {
    token: agent.key,
    body: { message: 'Three cracked tiles by the bath.', subject: request.subject },
  });
  expect(asked.status).toBe(201);
  request.id = String(asked.body.id);
  agent.token = String(asked.body.request_token);
  await stack.staff.requests.update(request.id, {
    status: 'routed',
    routing: { mode: 'direct', provider_ids: [provider.id] },
  });
  const proposal = await asProvider().requests.propose(request.id, {
    message: 'New tiles, matched.',
    amount: 200,
    currency: 'USD',
    estimated_days: 3,
    milestones: [{ title: 'Replace the tiles', amount: 200, due_in_days: 3 }],
  });
  const accepted = await http(
    parties(),
    `/v1/request/${request.id}/proposals/${proposal.id}/accept`,
    {
      method: 'POST',
      token: agent.key,
      headers: { 'X-Service-Request-Token': agent.token },
    },
  );
  expect(accepted.status).toBe(200);
  await signIn(page);
  await narrow.context().addCookies(await page.context().cookies());
  mkdirSync(SCREENS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await browser?.close();
  await stack?.stop();
});

describe('files in the workspace', () => {
  const note = Buffer.from('Tile: 20 x 20 cm, white gloss.\nGrout: light grey.\n');
  const longName = `measurements-of-the-bathroom-wall-behind-the-bath-${'x'.repeat(80)}.txt`;

  it('attaches files to a message: a refused file says why and keeps the text, then it is sent', async () => {
    await page.goto(url(`/workspace/requests/${request.id}`));
    await heading(page, request.subject).waitFor();
    const conversation = page.getByRole('region', { name: 'Conversation' });
    await page.getByLabel('Your message').fill('The tile sizes are in the note.');
    const input = conversationOf(page).getByLabel('Attach files');
    await input.setInputFiles([
      { name: 'tile-note.txt', mimeType: 'text/plain', buffer: note },
      { name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<!doctype html><p>hi') },
    ]);
    const chosen = page.getByRole('list', { name: 'Files to send' });
    await expect(chosen.getByRole('listitem').first().textContent()).resolves.toMatch(
      /^tile-note\.txt\s*50 B/,
    );
    await page.getByRole('button', { name: 'Send message' }).click();
    await page
      .getByRole('alert')
      .getByText(/^The file could not be uploaded|^1 of 2 files could not be uploaded/)
      .waitFor();
    const refused = chosen.getByRole('listitem').filter({ hasText: 'page.html' });
    await refused.getByText(/^Handoff does not take files of this type/).waitFor();
    // Nothing is lost: the text, and both files (the first one uploaded already).
    await expect(page.getByLabel('Your message').inputValue()).resolves.toBe(
      'The tile sizes are in the note.',
    );
    await chosen
      .getByRole('listitem')
      .filter({ hasText: 'tile-note.txt' })
      .getByText('Uploaded')
      .waitFor();

    // Removed by keyboard; the focus goes back to the file input.
    await refused.getByRole('button', { name: 'Remove page.html' }).focus();
    await page.keyboard.press('Enter');
    await expect(chosen.getByRole('listitem').count()).resolves.toBe(1);
    await expect(
      page.evaluate(() => (document.activeElement as HTMLInputElement).type),
    ).resolves.toBe('file');
    await page.getByRole('button', { name: 'Send message' }).click();
    const sent = conversation
      .getByRole('listitem')
      .filter({ hasText: 'The tile sizes are in the note.' });
    const link = sent.getByRole('link', { name: 'tile-note.txt' });
    await link.waitFor();
    await expect(sent.textContent()).resolves.toMatch(/tile-note\.txt\s*50 B · Text/);
    await expect(link.getAttribute('download')).resolves.toBe('tile-note.txt');
    await expect(link.getAttribute('rel')).resolves.toBe('noopener');
    expect(await downloaded(link)).toEqual(note);
    await expect(page.getByLabel('Your message').inputValue()).resolves.toBe('');
    await expect(page.getByRole('list', { name: 'Files to send' }).count()).resolves.toBe(0);
    const messages = await toArray(asProvider().requests.messages(request.id));
    expect(messages[0]?.attachments?.map((file) => file.filename)).toEqual(['tile-note.txt']);
  });

  it("shows the agent's attachment as it arrives, with a working link, even with a long name", async () => {
    const photo = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      randomBytes(2048),
    ]);
    const ids = [
      await agentUpload('cracked-tile.png', 'image/png', photo),
      await agentUpload(longName, 'text/plain', note),
    ];
    const said = await http(parties(), `/v1/request/${request.id}/message`, {
      token: agent.key,
      headers: { 'X-Service-Request-Token': agent.token },
      body: { message: 'Here is a photo and the wall measurements.', attachments: ids },
    });
    expect(said.status).toBe(201);
    const conversation = page.getByRole('region', { name: 'Conversation' });
    const link = conversation.getByRole('link', { name: 'cracked-tile.png' });
    await link.waitFor({ timeout: 10_000 });
    expect(await downloaded(link)).toEqual(photo);
    const long = conversation.getByRole('link', { name: longName });
    await expect(long.getAttribute('title')).resolves.toBe(longName);
    expect(await downloaded(long)).toEqual(note);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({
      path: `${SCREENS}/workspace-conversation-desktop.png`,
      fullPage: true,
    });

    await narrow.goto(url(`/workspace/requests/${request.id}`));
    await narrow.getByRole('link', { name: longName }).waitFor();
    expect(await fitsWidth(narrow)).toBe(true);
    await narrow
      .getByRole('region', { name: 'Conversation' })
      .getByLabel('Attach files')
      .setInputFiles([{ name: longName, mimeType: 'text/plain', buffer: note }]);
    expect(await fitsWidth(narrow)).toBe(true);
    await narrow
      .getByRole('region', { name: 'Conversation' })
      .screenshot({ path: `${SCREENS}/workspace-conversation-360.png` });
    await narrow.screenshot({ path: `${SCREENS}/workspace-request-360-full.png`, fullPage: true });
    await narrow.goto('about:blank');
  });

  it('adds work to the milestone with a file and no address; the file is listed with its link', async () => {
    const job = page.getByRole('region', { name: 'The job' });
    await job.getByText('Add your work: a link or files').click();
    await job.getByLabel('Title of your work').fill('Photos of the new tiles');
    const photo = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1024)]);
    await job
      .getByLabel('Files of your work')
      .setInputFiles([{ name: 'new-tiles.pdf', mimeType: 'application/pdf', buffer: photo }]);
    await page.getByRole('button', { name: 'Add work' }).click();
    const files = job.getByRole('list', { name: 'Files of Photos of the new tiles' });
    const link = files.getByRole('link', { name: 'new-tiles.pdf' });
    await link.waitFor({ timeout: 10_000 });
    await expect(files.textContent()).resolves.toMatch(/1 KB · PDF/);
    expect(await downloaded(link)).toEqual(photo);
    // A deliverable without an address has no link of its own: its title is plain text.
    await expect(job.getByRole('link', { name: 'Photos of the new tiles' }).count()).resolves.toBe(
      0,
    );
    const [deliverable] = await toArray(asProvider().deliverables.list({ request_id: request.id }));
    expect(deliverable).toMatchObject({ url: null, files: [{ filename: 'new-tiles.pdf' }] });
    expect(await accessibilityProblems(page)).toEqual([]);
    await job.screenshot({ path: `${SCREENS}/workspace-deliverable-desktop.png` });
  });

  it('sends a message by keyboard alone: the file input, then the button', async () => {
    await page.getByLabel('Your message').fill('And the invoice.');
    await page.keyboard.press('Tab');
    // The file input is next: a keyboard reaches it (Enter or Space would open the dialog).
    await expect(
      page.evaluate(() => (document.activeElement as HTMLInputElement).type),
    ).resolves.toBe('file');
    await conversationOf(page)
      .getByLabel('Attach files')
      .setInputFiles([
        { name: 'invoice.txt', mimeType: 'text/plain', buffer: Buffer.from('USD 200\n') },
      ]);
    await conversationOf(page).getByLabel('Attach files').focus();
    // Past the chosen file's "Remove" button to the send button.
    await page.keyboard.press('Tab');
    await expect(activeText()).resolves.toBe('Remove invoice.txt');
    await page.keyboard.press('Tab');
    await expect(activeText()).resolves.toBe('Send message');
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'invoice.txt' }).waitFor();
  });

  it('saw no script error, console error or failed call on the way', () => {
    expect(problems).toEqual([]);
  });
});
