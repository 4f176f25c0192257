// One delivery attempt against real HTTP receivers on 127.0.0.1. Every delivery that arrives is
// verified from its raw bytes by the reference Standard Webhooks library. Names that are not IP
// literals are resolved by a fake resolver, so no traffic ever leaves loopback.
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { AgentPool, parseRetryAfter, sendWebhook } from '../src/adapters/sender.ts';
import type { SendOptions, SendResult } from '../src/adapters/sender.ts';
import type { Resolver } from '../src/adapters/ssrf.ts';
import { generateWebhookSecret } from '../src/domain/signer.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

interface Receiver {
  url: string;
  port: number;
  received: Received[];
  connections: number;
  close: () => Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => void;

const receivers: Receiver[] = [];

async function startReceiver(handler: Handler): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw });
      handler(req, res, raw);
    });
  });
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    connections: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => {
    receiver.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  receivers.push(receiver);
  return receiver;
}

const answer =
  (status: number, body = '', headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };

const stringHeaders = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      typeof value === 'string' ? [[name, value]] : [],
    ),
  );

const only = (receiver: Receiver): Received => {
  expect(receiver.received).toHaveLength(1);
  const [first] = receiver.received;
  if (first === undefined) throw new Error('nothing received');
  return first;
};

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const pool = new AgentPool();
const secret = generateWebhookSecret();
const local = { allowPrivate: true };
const strict = { allowPrivate: false };
const body = JSON.stringify({
  id: 'evt_01HX',
  type: 'request.created',
  data: { note: 'café ☕ — ünïcödé', amount: 12.5 },
});
const event = { id: 'evt_01HX', body };
const options = (extra: Partial<SendOptions> = {}): SendOptions => ({
  timeoutMs: 5_000,
  policy: local,
  responseBodyLimit: 2_048,
  agents: pool,
  ...extra,
});

/** Resolves every name to 127.0.0.1 and counts the lookups. */
const loopbackResolver = (): Resolver & { calls: string[] } => {
  const calls: string[] = [];
  const resolver: Resolver = (hostname, _options, callback) => {
    calls.push(hostname);
    setImmediate(() => callback(null, [{ address: '127.0.0.1', family: 4 }]));
  };
  return Object.assign(resolver, { calls });
};

/**
 * Sends to `receiver.test` on a new receiver's port, a name the resolver answers with 127.0.0.1:
 * what the target policy makes of a name, not of an address.
 */
async function sendByName(scheme: 'http' | 'https', path: string, policy = local) {
  const receiver = await startReceiver(answer(200));
  const resolver = loopbackResolver();
  const result = await sendWebhook(
    { url: `${scheme}://receiver.test:${receiver.port}${path}`, secrets: [secret] },
    event,
    options({ policy, lookup: resolver }),
  );
  return { receiver, resolver, result };
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

afterAll(() => {
  pool.destroy();
});

describe('sendWebhook', () => {
  it('delivers a signed POST that the Standard Webhooks library verifies', async () => {
    const receiver = await startReceiver(answer(200, 'thanks'));
    const result = await sendWebhook(
      { url: `${receiver.url}/hooks?x=1`, secrets: [secret] },
      event,
      options(),
    );

    const expected: Omit<SendResult, 'durationMs'> = {
      outcome: 'success',
      statusCode: 200,
      error: null,
      responseBody: 'thanks',
      retryAfterSeconds: null,
    };
    expect(result).toEqual({ ...expected, durationMs: expect.any(Number) });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const delivery = only(receiver);
    expect(delivery.method).toBe('POST');
    expect(delivery.url).toBe('/hooks?x=1');
    expect(delivery.raw.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(delivery.headers['webhook-id']).toBe('evt_01HX');
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['user-agent']).toBe('Handoff-Webhooks/1.0');
    expect(delivery.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const verified = new Webhook(secret).verify(delivery.raw, stringHeaders(delivery.headers));
    expect(verified).toEqual(JSON.parse(body));
    expect(() =>
      new Webhook(generateWebhookSecret()).verify(delivery.raw, stringHeaders(delivery.headers)),
    ).toThrow(/No matching signature/);
  });

  it('signs with both secrets during a rotation, each verifying on its own', async () => {
    const receiver = await startReceiver(answer(204));
    const next = generateWebhookSecret();
    const result = await sendWebhook(
      { url: receiver.url, secrets: [next, secret] },
      event,
      options(),
    );
    expect(result.outcome).toBe('success');
    expect(result.statusCode).toBe(204);
    expect(result.responseBody).toBe('');

    const delivery = only(receiver);
    const headers = stringHeaders(delivery.headers);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(delivery.raw, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(secret).verify(delivery.raw, headers)).toEqual(JSON.parse(body));
  });

  it('keeps webhook-id across attempts and takes a fresh timestamp for each', async () => {
    const receiver = await startReceiver(answer(500));
    let clock = Date.now() - 120_000;
    const now = (): number => clock;
    await sendWebhook({ url: receiver.url, secrets: [secret] }, event, options({ now }));
    clock += 61_000;
    await sendWebhook({ url: receiver.url, secrets: [secret] }, event, options({ now }));

    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received.map((delivery) => stringHeaders(delivery.headers));
    expect(first?.['webhook-id']).toBe('evt_01HX');
    expect(second?.['webhook-id']).toBe('evt_01HX');
    expect(Number(second?.['webhook-timestamp']) - Number(first?.['webhook-timestamp'])).toBe(61);
    expect(first?.['webhook-signature']).not.toBe(second?.['webhook-signature']);
    for (const delivery of receiver.received) {
      expect(new Webhook(secret).verify(delivery.raw, stringHeaders(delivery.headers))).toEqual(
        JSON.parse(body),
      );
    }
  });

  it.each([
    [200, 'success'],
    [202, 'success'],
    [400, 'retry'],
    [404, 'retry'],
    [410, 'gone'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
  ])('maps HTTP %i to %s', async (status, outcome) => {
    const receiver = await startReceiver(answer(status, `status ${status}`));
    const result = await sendWebhook({ url: receiver.url, secrets: [secret] }, event, options());
    expect(result).toMatchObject({
      outcome,
      statusCode: status,
      error: null,
      responseBody: `status ${status}`,
    });
    expect(
      new Webhook(secret).verify(only(receiver).raw, stringHeaders(only(receiver).headers)),
    ).toBeTruthy();
  });

  it('does not follow a redirect', async () => {
    const elsewhere = await startReceiver(answer(200));
    const receiver = await startReceiver(
      answer(301, 'moved', { location: `${elsewhere.url}/new-home` }),
    );
    const result = await sendWebhook({ url: receiver.url, secrets: [secret] }, event, options());
    expect(result.outcome).toBe('retry');
    expect(result.statusCode).toBe(301);
    expect(result.error).toMatch(/^redirect not followed/);
    expect(result.error).toContain('/new-home');
    expect(result.responseBody).toBe('moved');
    only(receiver);
    await settle(100);
    expect(elsewhere.received).toHaveLength(0);
    expect(elsewhere.connections).toBe(0);
  });

  it('reads Retry-After in seconds', async () => {
    const receiver = await startReceiver(answer(429, 'slow down', { 'retry-after': '120' }));
    const result = await sendWebhook({ url: receiver.url, secrets: [secret] }, event, options());
    expect(result).toMatchObject({ outcome: 'retry', statusCode: 429, retryAfterSeconds: 120 });
  });

  it('reads Retry-After as an HTTP-date', async () => {
    const at = new Date(Date.now() + 90_000).toUTCString();
    const receiver = await startReceiver(answer(503, '', { 'retry-after': at }));
    const result = await sendWebhook({ url: receiver.url, secrets: [secret] }, event, options());
    expect(result.outcome).toBe('retry');
    expect(result.retryAfterSeconds).toBeGreaterThanOrEqual(88);
    expect(result.retryAfterSeconds).toBeLessThanOrEqual(90);
  });

  it('ignores a Retry-After it cannot read', async () => {
    const receiver = await startReceiver(answer(503, '', { 'retry-after': 'soon' }));
    const result = await sendWebhook({ url: receiver.url, secrets: [secret] }, event, options());
    expect(result.retryAfterSeconds).toBeNull();
  });

  it('times out a receiver that never answers, at about timeoutMs', async () => {
    const receiver = await startReceiver(() => undefined);
    const started = Date.now();
    const result = await sendWebhook(
      { url: receiver.url, secrets: [secret] },
      event,
      options({ timeoutMs: 1_000 }),
    );
    const took = Date.now() - started;
    expect(result).toMatchObject({
      outcome: 'retry',
      statusCode: null,
      error: 'timeout',
      responseBody: null,
    });
    expect(took).toBeGreaterThanOrEqual(990);
    // Ended by its own timeout, not by anything later (bounds generous for a busy machine).
    expect(took).toBeLessThan(10_000);
    expect(result.durationMs).toBeGreaterThanOrEqual(990);
    // The request itself arrived; only the answer never came.
    only(receiver);
  });

  it('keeps the answer of a receiver that stalls in the middle of its body', async () => {
    const receiver = await startReceiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const result = await sendWebhook(
      { url: receiver.url, secrets: [secret] },
      event,
      options({ timeoutMs: 1_000 }),
    );
    expect(result).toMatchObject({
      outcome: 'success',
      statusCode: 200,
      error: 'timeout reading response body',
      responseBody: 'partial',
    });
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it('truncates a huge answer to the limit and stops reading', async () => {
    let stopped = false;
    const receiver = await startReceiver((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      const pump = setInterval(() => res.write(chunk), 5);
      res.on('close', () => {
        stopped = true;
        clearInterval(pump);
      });
    });
    const result = await sendWebhook(
      { url: receiver.url, secrets: [secret] },
      event,
      options({ responseBodyLimit: 100, timeoutMs: 60_000 }),
    );
    expect(result.outcome).toBe('retry');
    expect(result.statusCode).toBe(500);
    expect(result.error).toBeNull();
    expect(result.responseBody).toBe('x'.repeat(100));
    // It stopped at the limit, long before its timeout.
    expect(result.durationMs).toBeLessThan(20_000);
    await settle(100);
    expect(stopped).toBe(true);
  });

  it.each([
    // Five bytes hold two 2-byte characters and half of a third, which is left out.
    ['never cuts a UTF-8 character in half', 'ééééé', 5, 'éé'],
    ['keeps a body that is exactly the limit', '0123456789', 10, '0123456789'],
  ])('%s', async (_, body, responseBodyLimit, kept) => {
    const receiver = await startReceiver(answer(200, body));
    const result = await sendWebhook(
      { url: receiver.url, secrets: [secret] },
      event,
      options({ responseBodyLimit }),
    );
    expect(result.responseBody).toBe(kept);
  });

  it('reports a connection error as retry', async () => {
    const receiver = await startReceiver(answer(200));
    await receiver.close();
    const result = await sendWebhook({ url: receiver.url, secrets: [secret] }, event, options());
    expect(result).toMatchObject({ outcome: 'retry', statusCode: null, responseBody: null });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('ends as retry with error aborted when the caller aborts', async () => {
    const receiver = await startReceiver(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await sendWebhook(
      { url: receiver.url, secrets: [secret] },
      event,
      options({ signal: controller.signal }),
    );
    expect(result).toMatchObject({ outcome: 'retry', statusCode: null, error: 'aborted' });
  });

  it('reuses a kept-alive connection for the same origin', async () => {
    const receiver = await startReceiver(answer(200, 'ok'));
    const resolver = loopbackResolver();
    const url = `http://receiver.test:${receiver.port}/`;
    const agents = new AgentPool();
    try {
      for (let i = 0; i < 3; i += 1) {
        const result = await sendWebhook(
          { url, secrets: [secret] },
          event,
          options({ agents, lookup: resolver }),
        );
        expect(result.outcome).toBe('success');
      }
      expect(receiver.received).toHaveLength(3);
      expect(receiver.received[0]?.headers.host).toBe(`receiver.test:${receiver.port}`);
      expect(receiver.connections).toBe(1);
      // The guard runs once per new connection.
      expect(resolver.calls).toEqual(['receiver.test']);
    } finally {
      agents.destroy();
    }
  });
});

describe('sendWebhook on a reused connection', () => {
  it('retries once on a new connection when a kept-alive one is reset', async () => {
    const served = new WeakSet<object>();
    const receiver = await startReceiver((req, res) => {
      if (served.has(req.socket)) {
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      res.end('ok');
    });
    const agents = new AgentPool();
    try {
      const target = { url: receiver.url, secrets: [secret] };
      expect((await sendWebhook(target, event, options({ agents }))).outcome).toBe('success');
      const second = await sendWebhook(target, event, options({ agents }));
      expect(second).toMatchObject({ outcome: 'success', statusCode: 200, responseBody: 'ok' });
      expect(receiver.connections).toBe(2);
      expect(receiver.received).toHaveLength(3);
    } finally {
      agents.destroy();
    }
  });
});

describe('sendWebhook target policy', () => {
  it('refuses a loopback target without allowPrivate; nothing is sent', async () => {
    const receiver = await startReceiver(answer(200));
    for (const url of [
      receiver.url,
      `https://127.0.0.1:${receiver.port}/`,
      `https://127.1:${receiver.port}/`,
      `https://[::ffff:127.0.0.1]:${receiver.port}/`,
      `https://localhost:${receiver.port}/`,
    ]) {
      const result = await sendWebhook(
        { url, secrets: [secret] },
        event,
        options({ policy: strict }),
      );
      expect(result).toMatchObject({ outcome: 'refused', statusCode: null, responseBody: null });
      expect(result.error).toMatch(/https|loopback/);
    }
    await settle(100);
    expect(receiver.received).toHaveLength(0);
    expect(receiver.connections).toBe(0);
  });

  it('refuses a name that resolves to 127.0.0.1 without allowPrivate, at connect time', async () => {
    const { receiver, resolver, result } = await sendByName('https', '/hooks', strict);
    expect(result).toMatchObject({ outcome: 'refused', statusCode: null, responseBody: null });
    expect(result.error).toMatch(/receiver\.test.*127\.0\.0\.1.*loopback/);
    expect(resolver.calls).toEqual(['receiver.test']);
    await settle(100);
    expect(receiver.received).toHaveLength(0);
    expect(receiver.connections).toBe(0);
  });

  it('connects to the checked address of a name when the policy allows it', async () => {
    const { receiver, resolver, result } = await sendByName('http', '/');
    expect(result.outcome).toBe('success');
    expect(resolver.calls).toEqual(['receiver.test']);
    const delivery = only(receiver);
    expect(new Webhook(secret).verify(delivery.raw, stringHeaders(delivery.headers))).toEqual(
      JSON.parse(body),
    );
  });

  it('refuses metadata and link-local targets even with allowPrivate', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]:8080/']) {
      const result = await sendWebhook({ url, secrets: [secret] }, event, options());
      expect(result.outcome).toBe('refused');
      expect(result.error).toMatch(/metadata|link-local/);
    }
    const metadataResolver: Resolver = (_hostname, _options, callback) =>
      callback(null, [{ address: '169.254.169.254', family: 4 }]);
    const result = await sendWebhook(
      { url: 'http://instance-data.test/', secrets: [secret] },
      event,
      options({ lookup: metadataResolver }),
    );
    expect(result.outcome).toBe('refused');
    expect(result.error).toMatch(/metadata/);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it.each<[string | undefined, number | null]>([
    [undefined, null],
    ['0', 0],
    ['120', 120],
    [' 30 ', 30],
    ['Sun, 01 Mar 2026 12:02:00 GMT', 120],
    ['Sunday, 01-Mar-26 12:01:00 GMT', 60],
    ['Sun Mar  1 12:00:30 2026', 30],
    ['Sun, 01 Mar 2026 11:00:00 GMT', 0],
    ['-5', null],
    ['1.5', null],
    ['soon', null],
    ['2026-03-01T12:02:00Z', null],
  ])('%j gives %j', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });
});
