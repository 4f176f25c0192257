import { afterAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import {
  eventually,
  ferretBackend,
  mailpitClient,
  serviceDatabase,
  startMailpit,
} from '@handoff/testkit';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { jwtVerify } from 'jose';
import { MongoClient } from 'mongodb';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { connect as connectTcp } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signStaffToken } from '../src/staff-token.ts';
import { checkOwnGateway, type StackState } from '../src/stack.ts';
import { runStack, STACK_START_BUDGET_MS } from './support/run-stack.ts';

/** What a test does besides waiting for the stack: its own calls, and a clean stop. */
const TEST_WORK_MS = 60_000;
/** How long a stopped service may take to be reported down. */
const DOWN_BUDGET_MS = 60_000;
/** How long a killed service may take to be restarted and to answer again on a busy machine. */
const RESTART_BUDGET_MS = 90_000;

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const ONBOARD = fileURLToPath(new URL('../src/onboard.ts', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'handoff-stack-'));
let stack: ChildProcess | undefined;
let output = '';

afterAll(async () => {
  if (stack && stack.exitCode === null) {
    const exited = new Promise((resolve) => stack?.once('exit', resolve));
    stack.kill('SIGINT');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

function startStack(extra: Record<string, string> = {}): ChildProcess {
  output = '';
  // The stack starts its own servers here, exactly as `npm start` does on a fresh machine.
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    // The services' log lines on, so the test sees that none reaches the banner.
    STACK_QUIET: 'false',
    LOG_LEVEL: 'info',
  };
  delete env.NATS_URL;
  delete env.MONGO_URL;
  delete env.MAILPIT_URL;
  delete env.MAILPIT_SMTP_URL;
  delete env.SMTP_URL;
  Object.assign(env, extra);
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return child;
}

const state = (): StackState =>
  JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as StackState;

/** stack.json's Mailpit address, there unless the stack was given SMTP_URL. */
function mailUrlOf(current: StackState): string {
  if (!current.mail_url) throw new Error(`no mail_url in stack.json: ${JSON.stringify(current)}`);
  return current.mail_url;
}

/** The programs a running process started (its children's command names). */
function programsStartedBy(pid: number | undefined): string[] {
  return readdirSync(`/proc/${pid ?? 0}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid ?? 0}/task/${task}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map((child) => readFileSync(`/proc/${child}/comm`, 'utf8').trim()),
  );
}

/** The environment the supervisor gave a running service process. */
function environOf(pid: number | undefined): Map<string, string> {
  const lines = readFileSync(`/proc/${pid ?? 0}/environ`, 'utf8').split('\0');
  return new Map(
    lines.flatMap((line) => {
      const at = line.indexOf('=');
      return at > 0 ? [[line.slice(0, at), line.slice(at + 1)] as const] : [];
    }),
  );
}

/**
 * Hands one mail to an SMTP server, as a plain client does (no extensions, no TLS): what a
 * service's mail library does at its simplest, with nothing of the services' own code.
 */
async function sendMail(smtpUrl: string, mail: { from: string; to: string; subject: string }) {
  const { hostname, port } = new URL(smtpUrl);
  const socket = connectTcp({ host: hostname, port: Number(port) });
  socket.setEncoding('utf8');
  let buffer = '';
  const waiting: ((line: string) => void)[] = [];
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    // A reply's last line is `<code> <text>`; continuation lines are `<code>-<text>`.
    for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (/^\d{3} /.test(line)) waiting.shift()?.(line);
    }
  });
  const reply = () => new Promise<string>((resolve) => waiting.push(resolve));
  const expectReply = async (command: string | undefined, code: string) => {
    const answer = reply();
    if (command !== undefined) socket.write(`${command}\r\n`);
    expect({ command, answer: (await answer).slice(0, 3) }).toEqual({ command, answer: code });
  };
  try {
    await expectReply(undefined, '220');
    await expectReply('HELO stack.test', '250');
    await expectReply(`MAIL FROM:<${mail.from}>`, '250');
    await expectReply(`RCPT TO:<${mail.to}>`, '250');
    await expectReply('DATA', '354');
    await expectReply(
      [
        `From: <${mail.from}>`,
        `To: <${mail.to}>`,
        `Subject: ${mail.subject}`,
        `Date: ${new Date().toUTCString()}`,
        '',
        "Handed to the stack's SMTP address by tools/devstack/test/stack.test.ts.",
        '.',
      ].join('\r\n'),
      '250',
    );
    await expectReply('QUIT', '221');
  } finally {
    socket.destroy();
  }
}

/** The public probe's status, and the per-service details that only staff may read. */
async function readiness(url: string) {
  const res = await fetch(`${url}/readyz`);
  const staffToken = /export STAFF=(\S+)/.exec(output)?.[1] ?? '';
  const details = await fetch(`${url}/v1/staff/health`, {
    headers: { Authorization: `Bearer ${staffToken}` },
  });
  return {
    status: res.status,
    body: (await details.json()) as {
      status: string;
      services: Record<string, { status: string }>;
    },
  };
}

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `node src/onboard.ts` against the stack of `dir`, as scripts/api-check.sh runs it. */
function onboard(dir: string): Promise<{ stdout: string; stderr: string; code: number }> {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dir };
  delete env.NODE_OPTIONS;
  delete env.STAFF_JWT_SECRET;
  return new Promise((resolve) => {
    execFile(process.execPath, [ONBOARD], { env, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ stdout, stderr, code });
    });
  });
}

/**
 * Staff route a new request to the provider `handoff onboard` makes (with an address), as the
 * notifications service hears of it; answers that address.
 */
async function routeToOnboardedProvider(): Promise<string> {
  const { stdout, code, stderr } = await onboard(dataDir);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  const value = (name: string) =>
    stdout
      .split('\n')
      .find((line) => line.startsWith(`export ${name}=`))
      ?.slice(`export ${name}=`.length) ?? '';
  const url = value('HANDOFF_URL');
  const staff = { Authorization: `Bearer ${value('STAFF_TOKEN')}` };
  const me = (await (
    await fetch(`${url}/v1/provider/me`, {
      headers: { Authorization: `Bearer ${value('HANDOFF_PROVIDER_KEY')}` },
    })
  ).json()) as { id: string };
  const provider = (await (
    await fetch(`${url}/v1/staff/providers/${me.id}`, { headers: staff })
  ).json()) as { id: string; email: string | null };
  expect(provider.email).toMatch(/@/);
  const created = await fetch(`${url}/v1/ai-to-human-request`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${value('HANDOFF_AGENT_KEY')}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      message: 'Please find me a plumber for a leaking kitchen tap this week.',
      category: 'home-services',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      contact_permission: true,
    }),
  });
  expect(created.status).toBe(201);
  const request = (await created.json()) as { id: string };
  const routed = await fetch(`${url}/v1/staff/requests/${request.id}`, {
    method: 'PATCH',
    headers: { ...staff, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      status: 'routed',
      routing: { mode: 'direct', provider_ids: [provider.id] },
    }),
  });
  expect(routed.status).toBe(200);
  return provider.email ?? '';
}

async function stopStack(): Promise<number | null> {
  const child = stack;
  if (!child) return null;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  child.kill('SIGINT');
  const code = await exited;
  stack = undefined;
  return code;
}

describe('npm start', () => {
  it(
    'brings up NATS, the database, Mailpit and eight services, and prints the URLs and a staff token',
    async () => {
      stack = startStack();
      await eventually(() => (output.includes('export STAFF=') ? true : undefined), {
        timeoutMs: STACK_START_BUDGET_MS,
        what: `the stack's banner; output so far:\n${output}`,
      });
      expect(output).toContain('Handoff is up: every service answers.');
      const { gateway_url: url, services } = state();
      const mailUrl = mailUrlOf(state());
      expect(output).toContain(url);
      expect(output).toMatch(
        new RegExp(`^\\[stack\\] +mail +${mailUrl.replace(/[.]/g, '\\.')} +\\(Mailpit`, 'm'),
      );
      expect(Object.keys(services).sort()).toEqual(
        [
          'conversation',
          'gateway',
          'intake',
          'milestones',
          'notifications',
          'payments',
          'testmode',
          'webhook-dispatcher',
        ].sort(),
      );
      const pids = Object.values(services).map((service) => service.pid);
      expect(new Set(pids).size).toBe(8);
      expect(pids.every(alive)).toBe(true);
      expect((await readiness(url)).status).toBe(200);

      const token = /export STAFF=(\S+)/.exec(output)?.[1] ?? '';
      const secret = readFileSync(join(dataDir, 'dev-staff-jwt-secret'), 'utf8').trim();
      const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(secret));
      expect(protectedHeader.alg).toBe('HS256');
      expect(payload.roles).toContain('staff');

      // The banner is whole, without log lines, and ends on lines a shell can eval.
      const banner = output.slice(0, output.indexOf('\n', output.indexOf('export STAFF=')));
      expect(banner).not.toMatch(/^\S+ +\| /m);
      expect(banner).not.toContain('{"level"');
      const exports = banner.split('\n').filter((line) => line.startsWith('export '));
      expect(exports).toEqual([
        `export GATEWAY=${url}`,
        `export MAILPIT=${mailUrl}`,
        `export STAFF=${token}`,
      ]);
      const evaluated = await new Promise<string>((resolve, reject) =>
        execFile(
          'bash',
          ['-c', `${exports.join('\n')}\necho "$GATEWAY $MAILPIT $STAFF"`],
          (error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
        ),
      );
      expect(evaluated).toBe(`${url} ${mailUrl} ${token}`);
      // The logs are in the data dir, and on the terminal after the banner.
      await eventually(
        () =>
          /^gateway +\| \{/m.test(readFileSync(join(dataDir, 'logs', 'stack.log'), 'utf8'))
            ? true
            : undefined,
        { timeoutMs: 10_000, what: 'gateway log lines in DATA_DIR/logs/stack.log' },
      );
    },
    STACK_START_BUDGET_MS + TEST_WORK_MS,
  );

  it("writes Mailpit's addresses into stack.json, and a mail handed to smtp_url shows at mail_url", async () => {
    const { smtp_url: smtpUrl, gateway_url: gatewayUrl, services } = state();
    const mailUrl = mailUrlOf(state());
    expect(mailUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(programsStartedBy(stack?.pid)).toContain('mailpit');
    // Its messages live in the data dir, so they outlast a restart (checked below).
    expect(existsSync(join(dataDir, 'mailpit', 'mailpit.db'))).toBe(true);

    const mail = mailpitClient(mailUrl);
    const subject = `stack test ${Date.now()}`;
    await sendMail(smtpUrl, { from: 'stack@handoff.test', to: 'someone@example.com', subject });
    const found = await eventually(
      async () => (await mail.search(`subject:"${subject}"`)).messages[0],
      { timeoutMs: 10_000, what: `the mail "${subject}" in Mailpit's API at ${mailUrl}` },
    );
    expect(found.To.map((to) => to.Address)).toEqual(['someone@example.com']);

    // The notifications process sends there, links to this stack's gateway and signs with the
    // key kept in the data dir.
    const environ = environOf(services.notifications?.pid);
    expect(environ.get('SMTP_URL')).toBe(smtpUrl);
    expect(environ.get('PUBLIC_URL')).toBe(gatewayUrl);
    expect(environ.get('STAFF_NOTIFY_EMAIL')).toBe('staff@handoff.local');
    expect(environ.get('MONGO_DB')).toBe(serviceDatabase('notifications'));
    const key = readFileSync(join(dataDir, 'dev-notifications-signing-key'), 'utf8').trim();
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(environ.get('NOTIFICATIONS_SIGNING_KEY')).toBe(key);
  });

  it('mails a provider when staff route a request to it', async () => {
    // The outside check of the notifications wiring: the provider `handoff onboard` makes has
    // an address, and the stack's Mailpit holds a mail to it soon after staff route a request.
    const address = await routeToOnboardedProvider();
    const mail = mailpitClient(mailUrlOf(state()));
    await eventually(async () => (await mail.search(`to:"${address}"`)).messages[0], {
      timeoutMs: 10_000,
      what: `a mail to ${address} in the stack's Mailpit`,
    });
  });

  it('refuses a port that is taken, before starting anything', async () => {
    const port = new URL(state().gateway_url).port;
    const otherDir = mkdtempSync(join(tmpdir(), 'handoff-port-'));
    try {
      const second = runStack({ DATA_DIR: otherDir, PORT: port });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`[stack] cannot start: port ${port} is taken`);
      expect(second.output()).not.toContain('Handoff is up');
      expect(existsSync(join(otherDir, 'nats'))).toBe(false);
      expect(existsSync(join(otherDir, 'stack.json'))).toBe(false);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it("tells its own gateway from another stack's", async () => {
    const current = state();
    const pids = Object.fromEntries(
      Object.entries(current.services).map(([name, service]) => [name, service?.pid]),
    );
    const token = await signStaffToken(
      readFileSync(join(dataDir, 'dev-staff-jwt-secret'), 'utf8').trim(),
    );
    expect(await checkOwnGateway(current.gateway_url, token, pids)).toEqual({ own: true });
    // Another stack has another staff secret…
    const stranger = await signStaffToken('the-secret-of-another-stack-0123456789');
    const refused = await checkOwnGateway(current.gateway_url, stranger, pids);
    expect(refused.own).toBe(false);
    expect(refused.own === false && refused.reason).toContain("refuses this stack's staff token");
    // …and other processes behind its gateway.
    const elsewhere = await checkOwnGateway(current.gateway_url, token, { ...pids, intake: 1 });
    expect(elsewhere.own).toBe(false);
    expect(elsewhere.own === false && elsewhere.reason).toContain('not this stack');
  });

  it('onboards an agent with every scope and a provider for tools, and prints the shell lines they need', async () => {
    const { stdout, stderr, code } = await onboard(dataDir);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.trimEnd().split('\n');
    // Exported: an agent started from the shell that evaluated them sees them too.
    expect(lines.map((line) => line.split('=')[0])).toEqual([
      'export HANDOFF_URL',
      'export HANDOFF_AGENT_KEY',
      'export HANDOFF_TEST_KEY',
      'export HANDOFF_PROVIDER_KEY',
      'export STAFF_TOKEN',
    ]);
    const value = (name: string) =>
      lines.find((line) => line.startsWith(`export ${name}=`))?.slice(`export ${name}=`.length) ??
      '';
    const url = value('HANDOFF_URL');
    expect(url).toBe(state().gateway_url);
    expect(value('HANDOFF_AGENT_KEY')).toMatch(/^hk_live_[0-9A-Za-z]{36}$/);

    const me = await fetch(`${url}/v1/me`, {
      headers: { Authorization: `Bearer ${value('HANDOFF_AGENT_KEY')}` },
    });
    expect(me.status).toBe(200);
    // The same integration's test key: test mode, on the integration's test twin.
    expect(value('HANDOFF_TEST_KEY')).toMatch(/^hk_test_[0-9A-Za-z]{36}$/);
    const testMe = await fetch(`${url}/v1/me`, {
      headers: { Authorization: `Bearer ${value('HANDOFF_TEST_KEY')}` },
    });
    expect(testMe.status).toBe(200);
    expect(((await testMe.json()) as { livemode: boolean }).livemode).toBe(false);
    const provider = await fetch(`${url}/v1/provider/me`, {
      headers: { Authorization: `Bearer ${value('HANDOFF_PROVIDER_KEY')}` },
    });
    expect(provider.status).toBe(200);
    const identity = (await me.json()) as { integration_id: string; scopes: string[] };
    expect([...identity.scopes].sort()).toEqual([...SCOPES].sort());

    const staffToken = value('STAFF_TOKEN');
    const secret = readFileSync(join(dataDir, 'dev-staff-jwt-secret'), 'utf8').trim();
    const { payload } = await jwtVerify(staffToken, new TextEncoder().encode(secret));
    expect(payload.roles).toEqual(['staff']);
    const integration = await fetch(`${url}/v1/staff/integrations/${identity.integration_id}`, {
      headers: { Authorization: `Bearer ${staffToken}` },
    });
    expect(integration.status).toBe(200);
    expect(((await integration.json()) as { scopes: string[] }).scopes.sort()).toEqual(
      [...SCOPES].sort(),
    );

    const elsewhere = mkdtempSync(join(tmpdir(), 'handoff-no-stack-'));
    try {
      const missing = await onboard(elsewhere);
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toContain('stack.json');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it(
    'names an unanswering service as down, and restarts one that dies',
    async () => {
      const { gateway_url: url, services } = state();
      const before = services.intake?.pid;
      expect(alive(before)).toBe(true);
      // A stopped process keeps its connections but answers nothing, so the report must name it
      // down however slowly a busy machine runs; the supervisor only restarts what exits, so the
      // down state cannot be outrun by a fast restart.
      process.kill(before ?? 0, 'SIGSTOP');
      try {
        await eventually(
          async () => {
            const { status, body } = await readiness(url);
            return status === 503 &&
              body.status === 'not_ready' &&
              body.services.intake?.status === 'down'
              ? true
              : undefined;
          },
          { timeoutMs: DOWN_BUDGET_MS, intervalMs: 100, what: 'intake reported down' },
        );
      } finally {
        // A stopped process dies of SIGKILL without running again.
        process.kill(before ?? 0, 'SIGKILL');
      }
      await eventually(async () => ((await readiness(url)).status === 200 ? true : undefined), {
        timeoutMs: RESTART_BUDGET_MS,
        intervalMs: 200,
        what: 'intake back up',
      });
      const after = state().services.intake?.pid;
      expect(after).not.toBe(before);
      expect(alive(after)).toBe(true);
      expect(output).toMatch(/intake exited \(SIGKILL\); restarting/);
    },
    DOWN_BUDGET_MS + RESTART_BUDGET_MS + TEST_WORK_MS,
  );

  it('connects each service to the database as its own user, which cannot reach the others', async () => {
    const { mongo_url: allAccess, services } = state();
    // What the supervisor gave the running intake process.
    const environ = readFileSync(`/proc/${services.intake?.pid ?? 0}/environ`, 'utf8').split('\0');
    const intakeUrl = environ.find((line) => line.startsWith('MONGO_URL='))?.slice(10) ?? '';
    expect(environ).toContain(`MONGO_DB=${serviceDatabase('intake')}`);
    if (ferretBackend(process.env) !== 'postgresql') {
      // FerretDB on SQLite has no users: every service shares the all-access URL.
      expect(intakeUrl).toBe(allAccess);
      return;
    }
    expect(intakeUrl).not.toBe(allAccess);
    expect(new URL(intakeUrl)).toMatchObject({ username: 'intake' });
    // Every backend service has its own, the notifications service included.
    for (const [name, service] of Object.entries(services)) {
      if (name === 'gateway') continue;
      const own = environOf(service?.pid).get('MONGO_URL') ?? '';
      expect({ name, user: new URL(own).username }).toEqual({ name, user: name });
    }
    const client = new MongoClient(intakeUrl);
    try {
      const own = await client.db(serviceDatabase('intake')).listCollections().toArray();
      expect(own.map((collection) => collection.name)).toContain('requests');
      await expect(
        client.db(serviceDatabase('conversation')).collection('messages').findOne({}),
      ).rejects.toThrow(/permission denied for schema handoff_conversation/);
    } finally {
      await client.close();
    }
  });

  it(
    'keeps data in DATA_DIR across a clean stop and a restart',
    async () => {
      const first = state();
      const mongo = new MongoClient(first.mongo_url);
      await mongo.db('handoff').collection('stack_test').insertOne({ kept: 'across restarts' });
      await mongo.close();
      const nc = await connect({
        servers: first.nats_url,
        user: first.nats_user,
        pass: first.nats_password,
      });
      const jsm = await jetstreamManager(nc);
      const before = (await jsm.streams.info('HANDOFF_EVENTS')).state.messages;
      await jsm
        .jetstream()
        .publish('handoff.events.request.created', '{}', { msgID: `evt_stack_${Date.now()}` });
      await nc.close();

      const mailsBefore = (await mailpitClient(mailUrlOf(first)).messages()).total;
      expect(mailsBefore).toBeGreaterThan(0);
      const signingKey = environOf(first.services.notifications?.pid).get(
        'NOTIFICATIONS_SIGNING_KEY',
      );
      // The files' download URLs are signed with a key kept in the data dir, so a URL handed
      // out before a restart still works after it.
      const fileUrlsKey = readFileSync(join(dataDir, 'dev-file-urls-key'), 'utf8').trim();
      expect(Buffer.from(fileUrlsKey, 'base64')).toHaveLength(32);
      expect(environOf(first.services.gateway?.pid).get('FILE_URLS_KEY')).toBe(fileUrlsKey);

      const pids = Object.values(first.services).map((service) => service.pid);
      expect(await stopStack()).toBe(0);
      expect(pids.some(alive)).toBe(false);
      expect(existsSync(join(dataDir, 'stack.json'))).toBe(false);

      stack = startStack();
      await eventually(() => (output.includes('export STAFF=') ? true : undefined), {
        timeoutMs: STACK_START_BUDGET_MS,
        what: 'the restarted stack',
      });
      const second = state();
      const again = new MongoClient(second.mongo_url);
      expect(
        await again.db('handoff').collection('stack_test').findOne({ kept: 'across restarts' }),
      ).not.toBeNull();
      await again.close();
      const nc2 = await connect({
        servers: second.nats_url,
        user: second.nats_user,
        pass: second.nats_password,
      });
      const messages = (await (await jetstreamManager(nc2)).streams.info('HANDOFF_EVENTS')).state
        .messages;
      await nc2.close();
      expect(messages).toBe(before + 1);
      // Mailpit's messages are in the data dir too, and the signing key is the same one.
      expect((await mailpitClient(mailUrlOf(second)).messages()).total).toBe(mailsBefore);
      expect(environOf(second.services.notifications?.pid).get('NOTIFICATIONS_SIGNING_KEY')).toBe(
        signingKey,
      );
      expect(environOf(second.services.gateway?.pid).get('FILE_URLS_KEY')).toBe(fileUrlsKey);
      expect(await stopStack()).toBe(0);
    },
    STACK_START_BUDGET_MS + TEST_WORK_MS,
  );

  it(
    "sends the stack's mail to SMTP_URL instead of starting Mailpit",
    async () => {
      // Another SMTP server, as a developer's SMTP_URL would name a real one; a Mailpit here, so
      // that the test can read what reached it. It takes any credentials.
      const otherDir = mkdtempSync(join(tmpdir(), 'handoff-smtp-'));
      const server = await startMailpit({ dataDir: otherDir, chaos: false, env: {} });
      try {
        const { host } = new URL(server.smtpUrl);
        const smtpUrl = `smtp://someone:not-for-stack-json@${host}`;
        stack = startStack({ SMTP_URL: smtpUrl });
        await eventually(() => (output.includes('export STAFF=') ? true : undefined), {
          timeoutMs: STACK_START_BUDGET_MS,
          what: `the stack with SMTP_URL; output so far:\n${output}`,
        });
        const current = state();
        expect(current.mail_url).toBeUndefined();
        expect(current.smtp_url).toBe(`smtp://${host}`);
        expect(output).toMatch(
          new RegExp(`^\\[stack\\] +mail +smtp://${host.replace(/[.]/g, '\\.')} +\\(SMTP_URL`, 'm'),
        );
        expect(output).not.toContain('not-for-stack-json');
        expect(output).not.toContain('export MAILPIT=');
        expect(environOf(current.services.notifications?.pid).get('SMTP_URL')).toBe(smtpUrl);
        expect(programsStartedBy(stack.pid)).not.toContain('mailpit');

        const address = await routeToOnboardedProvider();
        await eventually(
          async () => (await mailpitClient(server.url).search(`to:"${address}"`)).messages[0],
          { timeoutMs: 10_000, what: `a mail to ${address} at the SMTP server of SMTP_URL` },
        );
        expect(await stopStack()).toBe(0);
      } finally {
        await server.stop();
        rmSync(otherDir, { recursive: true, force: true });
      }
    },
    STACK_START_BUDGET_MS + TEST_WORK_MS,
  );
});
