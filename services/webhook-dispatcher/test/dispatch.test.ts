import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { newId, requestOps, webhookOps } from '@handoff/contracts';
import { sha256Hex } from '@handoff/runtime';
import { bootstrap as intake } from '@handoff/intake';
import { natsOptions, uniqueDatabase, eventually, serviceEnv } from '@handoff/testkit';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { bootstrap } from '../src/bootstrap.ts';
import { queuedJobs } from './support/delivery-resources.ts';
import { OFFER_MAX_ANSWER_MS, OFFER_PATIENCE_MS } from '../src/delivery/admission.ts';
import { EVENT_CONCURRENCY } from '../src/handlers/events.consumer.ts';
import { deliveryMaker } from '../src/handlers/fanout.ts';
import {
  DELIVERY_RETENTION_HOURS,
  pruneAllDueDeliveries,
  pruneDeliveries,
  recorder,
  type DeliveryDoc,
} from '../src/store/deliveries.ts';
import { deliveryQueue } from '../src/store/delivery-queue.ts';
import { endpointDirectory } from '../src/store/endpoint-directory.ts';
import type { EventDoc } from '../src/store/events.ts';

type Service = Awaited<ReturnType<typeof bootstrap>>;
const database = uniqueDatabase('dispatch');
const WEBHOOK_SECRETS_KEY = randomBytes(32).toString('base64');
let nc: NatsConnection;
let intakeService: Awaited<ReturnType<typeof intake>>;
const dispatchers: Service[] = [];
const servers: Server[] = [];
const opts = { timeoutMs: 5_000 };

interface Receipt {
  id: string;
  body: string;
  headers: IncomingHttpHeaders;
  at: number;
}

/** A receiver on loopback whose answers the test scripts, one per delivery. */
async function receiver(
  answer: (count: number, receipt: Receipt) => { status: number; headers?: Record<string, string> },
) {
  const receipts: Receipt[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const receipt = {
        id: String(req.headers['webhook-id']),
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
        at: Date.now(),
      };
      receipts.push(receipt);
      const { status, headers } = answer(receipts.length, receipt);
      res.writeHead(status, headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, receipts };
}

const startDispatcher = async (schedule: string, extra: Record<string, string> = {}) => {
  const service = await bootstrap({
    env: {
      ...serviceEnv('webhook-dispatcher', database),
      WEBHOOK_SECRETS_KEY,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: schedule,
      WEBHOOK_TIMEOUT_MS: '2000',
      ...extra,
    },
  });
  dispatchers.push(service);
  return service;
};

beforeAll(async () => {
  nc = await connect({ ...natsOptions() });
  intakeService = await intake({ env: serviceEnv('intake', database) });
});

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((service) => service.stop()));
});

afterAll(async () => {
  for (const server of servers) server.close();
  await intakeService.stop();
  await nc.close();
});

/** An endpoint of a fresh integration, and a way to make events for that integration. */
async function subscribe(url: string) {
  const integration_id = `int_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
  const endpoint = await call(nc, webhookOps.create, { integration_id, input: { url } }, opts);
  const createRequest = (message = 'hello') =>
    call(
      nc,
      requestOps.create,
      { integration_id, token_hash: sha256Hex(`hrt_${randomUUID()}`), input: { message } },
      // Intake writes to the same busy database; sixty at once can take a while.
      { timeoutMs: 30_000 },
    );
  return { integration_id, endpoint, createRequest };
}

/** The endpoint's attempts log (newest first) once it holds at least `count` attempts. */
function attemptsLogged(integration_id: string, endpointId: string, count: number) {
  return eventually(async () => {
    const list = await call(
      nc,
      webhookOps.attempts,
      { integration_id, id: endpointId, query: { limit: 10 } },
      opts,
    );
    return list.data.length >= count ? list : undefined;
  });
}

describe('webhook deliveries', () => {
  it('signs per Standard Webhooks, and a receiver failing three times gets the event on the fourth try on schedule', async () => {
    const service = await startDispatcher('0.3,0.6,0.9');
    const hook = await receiver((count) => ({ status: count <= 3 ? 500 : 204 }));
    const { integration_id, endpoint, createRequest } = await subscribe(hook.url);
    const sentAfter = Date.now();
    const request = await createRequest();
    await eventually(() => (hook.receipts.length >= 4 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'four attempts',
    });
    const [first, second, third, fourth] = hook.receipts;
    expect(new Set(hook.receipts.map((r) => r.id)).size).toBe(1);
    const webhook = new Webhook(endpoint.secret);
    for (const receipt of hook.receipts) {
      const verified = webhook.verify(receipt.body, receipt.headers as Record<string, string>) as {
        type: string;
        data: { request_id: string };
      };
      expect(verified).toMatchObject({ type: 'request.created', data: { request_id: request.id } });
    }
    // The schedule, with up to 10% jitter and the poll interval on top.
    const gap = (a?: Receipt, b?: Receipt) => (b?.at ?? 0) - (a?.at ?? 0);
    expect(gap(first, second)).toBeGreaterThanOrEqual(270);
    expect(gap(second, third)).toBeGreaterThanOrEqual(540);
    expect(gap(third, fourth)).toBeGreaterThanOrEqual(810);
    const attempts = await attemptsLogged(integration_id, endpoint.id, 4);
    expect(attempts.data).toHaveLength(4);
    expect(attempts.data.map((a) => [a.attempt, a.status_code])).toEqual([
      [4, 204],
      [3, 500],
      [2, 500],
      [1, 500],
    ]);
    expect(attempts.data[0]?.next_attempt_at).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.receipts).toHaveLength(4);

    // The delivery's record: inserted at the first attempt, updated by the later ones, and
    // deleted with its expiry bucket once that hour has come.
    const records = service.store.db.collection<DeliveryDoc>('webhook_deliveries');
    const record = await records.findOne({ _id: `${endpoint.id}.${first?.id ?? ''}` });
    expect(record).toMatchObject({ status: 'succeeded', attempts: 4, next_attempt_at: null });
    const bucket = record?.expires_bucket ?? '';
    expect(bucket).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}$/);
    const expiresAt = Date.parse(`${bucket}:00:00Z`);
    // At least the retention after the delivery finished (which was after `sentAfter`), at most
    // an hour more: the bucket is an hour, so no later than an hour past now plus the retention.
    expect(expiresAt - sentAfter).toBeGreaterThanOrEqual(DELIVERY_RETENTION_HOURS * 3_600_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual((DELIVERY_RETENTION_HOURS + 1) * 3_600_000);
    expect(await pruneDeliveries(service.store, 2, expiresAt - 3_600_000)).toBe(0);
    expect(await pruneDeliveries(service.store, 2, expiresAt + 1)).toBeGreaterThanOrEqual(1);
    expect(await records.findOne({ _id: record?._id ?? '' })).toBeNull();
    // The catch-up after a start takes every due bucket, however old, and no pending record.
    const pending = { ...record, _id: `${record?._id ?? ''}.pending`, expires_bucket: null };
    const old = { ...record, _id: `${record?._id ?? ''}.old`, expires_bucket: '2020-01-01T00' };
    await records.insertMany([pending, old] as DeliveryDoc[]);
    expect(await pruneAllDueDeliveries(service.store)).toBeGreaterThanOrEqual(1);
    expect(await records.findOne({ _id: old._id })).toBeNull();
    expect(await records.findOne({ _id: pending._id })).not.toBeNull();
  });

  it('honours Retry-After and disables an endpoint that answers 410', async () => {
    await startDispatcher('0.2,3');
    const slow = await receiver((count) =>
      count === 1 ? { status: 503, headers: { 'Retry-After': '1' } } : { status: 200 },
    );
    const a = await subscribe(slow.url);
    await a.createRequest();
    await eventually(() => (slow.receipts.length >= 2 ? true : undefined), { timeoutMs: 20_000 });
    expect((slow.receipts[1]?.at ?? 0) - (slow.receipts[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);

    const gone = await receiver(() => ({ status: 410 }));
    const b = await subscribe(gone.url);
    await b.createRequest();
    await eventually(async () => {
      const endpoint = await call(
        nc,
        webhookOps.get,
        { integration_id: b.integration_id, id: b.endpoint.id },
        opts,
      );
      return endpoint.enabled ? undefined : endpoint;
    }).then((endpoint) =>
      expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'gone' }),
    );
    await b.createRequest();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(gone.receipts).toHaveLength(1);
  });

  it('disables an endpoint that has failed for WEBHOOK_DISABLE_AFTER_S without a success', async () => {
    await startDispatcher('0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3', { WEBHOOK_DISABLE_AFTER_S: '1' });
    const failing = await receiver(() => ({ status: 500 }));
    const { integration_id, endpoint, createRequest } = await subscribe(failing.url);
    await createRequest();
    const disabled = await eventually(async () => {
      const found = await call(nc, webhookOps.get, { integration_id, id: endpoint.id }, opts);
      return found.enabled ? undefined : found;
    });
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    // Attempts went on through the window (the first failure opens it, the first one made 1 s
    // or more after it closes it; how many fit in depends on how busy the machine is) and stop
    // once it is disabled: the retry already queued is cancelled when it comes up.
    const made = failing.receipts.length;
    expect(made).toBeGreaterThanOrEqual(2);
    const first = failing.receipts[0]?.at ?? 0;
    const last = failing.receipts[made - 1]?.at ?? 0;
    // (Measured at the receiver: each attempt's own send time is a little off either end.)
    expect(last - first).toBeGreaterThanOrEqual(800);
    // …and every attempt but the last was made inside the window: it was not left failing for
    // a second one. By the dispatcher's own clock (each attempt's `attempted_at`; the first
    // failure's opens the window), since the receiver's adds each delivery's own lag, which on a
    // busy machine pushed an attempt made inside the window past it.
    const log = await attemptsLogged(integration_id, endpoint.id, made);
    const madeAt = log.data.map((attempt) => Date.parse(attempt.attempted_at)).reverse();
    const opened = madeAt[0] ?? 0;
    expect(madeAt).toHaveLength(made);
    expect(madeAt.slice(0, -1).every((at) => at - opened < 1_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(failing.receipts).toHaveLength(made);
  });

  it('cancels what was queued for an endpoint when it is disabled, even if enabled again', async () => {
    await startDispatcher('1.5');
    let fail = true;
    const hook = await receiver(() => ({ status: fail ? 500 : 200 }));
    const { integration_id, endpoint, createRequest } = await subscribe(hook.url);
    await createRequest('before');
    await eventually(() => (hook.receipts.length >= 1 ? true : undefined));
    // The retry is queued, due in 1.5 s; the endpoint is disabled and enabled again meanwhile.
    const toggle = (enabled: boolean) =>
      call(nc, webhookOps.update, { integration_id, id: endpoint.id, patch: { enabled } }, opts);
    await toggle(false);
    await toggle(true);
    fail = false;
    await createRequest('after');
    await eventually(() => (hook.receipts.length >= 2 ? true : undefined));
    // Past the retry's due time (1.5 s + 10 % jitter), nothing more came: only the new event.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(hook.receipts).toHaveLength(2);
    expect(hook.receipts[1]?.id).not.toBe(hook.receipts[0]?.id);
  });

  it('signs with both secrets during a rotation', async () => {
    await startDispatcher('0.2');
    const hook = await receiver(() => ({ status: 200 }));
    const { integration_id, endpoint, createRequest } = await subscribe(hook.url);
    const rotated = await call(
      nc,
      webhookOps.rotateSecret,
      { integration_id, id: endpoint.id, grace_period_seconds: 60 },
      opts,
    );
    expect(rotated.previous_secret_expires_at).not.toBeNull();
    await createRequest();
    await eventually(() => (hook.receipts.length >= 1 ? true : undefined));
    const receipt = hook.receipts[0];
    expect(String(receipt?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret]) {
      expect(() =>
        new Webhook(secret).verify(receipt?.body ?? '', receipt?.headers as Record<string, string>),
      ).not.toThrow();
    }
  });

  it('lets several replicas share the work without delivering an event twice', async () => {
    await Promise.all([startDispatcher('0.2'), startDispatcher('0.2'), startDispatcher('0.2')]);
    const hook = await receiver(() => ({ status: 200 }));
    const { createRequest } = await subscribe(hook.url);
    await Promise.all(Array.from({ length: 60 }, (_, i) => createRequest(`event ${i}`)));
    await eventually(() => (hook.receipts.length >= 60 ? true : undefined), {
      timeoutMs: 20_000,
      what: '60 deliveries',
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.receipts).toHaveLength(60);
    expect(new Set(hook.receipts.map((r) => r.id)).size).toBe(60);
  });

  it('resumes a schedule after a restart instead of starting it again', async () => {
    const first = await startDispatcher('0.2,2,2');
    let fail = true;
    const hook = await receiver(() => ({ status: fail ? 500 : 200 }));
    const { integration_id, endpoint, createRequest } = await subscribe(hook.url);
    await createRequest();
    // Generous bounds: a restart on a busy machine can take seconds; the gap below is the check.
    await eventually(() => (hook.receipts.length >= 2 ? true : undefined), { timeoutMs: 20_000 });
    await first.stop();
    dispatchers.splice(dispatchers.indexOf(first), 1);
    fail = false;
    const stoppedAt = Date.now();
    await startDispatcher('0.2,2,2');
    await eventually(() => (hook.receipts.length >= 3 ? true : undefined), { timeoutMs: 20_000 });
    // The third try waits out the schedule's 2 s from the second, not 0.2 s from a fresh start.
    expect((hook.receipts[2]?.at ?? 0) - (hook.receipts[1]?.at ?? 0)).toBeGreaterThanOrEqual(1_800);
    expect(Date.now() - stoppedAt).toBeGreaterThan(0);
    // The attempts log is written in batches, just after the receiver has answered.
    const attempts = await attemptsLogged(integration_id, endpoint.id, 3);
    expect(attempts.data.map((a) => a.attempt)).toEqual([3, 2, 1]);
  });

  it('holds every delivery while WEBHOOK_DELIVERIES_PAUSED, and sends them all once it is off', async () => {
    const paused = await startDispatcher('0.2', { WEBHOOK_DELIVERIES_PAUSED: 'true' });
    const hook = await receiver(() => ({ status: 200 }));
    const { integration_id, createRequest } = await subscribe(hook.url);
    await Promise.all([createRequest('one'), createRequest('two'), createRequest('three')]);
    // The events are taken in (the feed has them) while nothing is sent.
    await eventually(async () => {
      const list = await call(nc, webhookOps.listEvents, { integration_id, query: {} }, opts);
      return list.data.length === 3 ? true : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.receipts).toHaveLength(0);
    await paused.stop();
    dispatchers.splice(dispatchers.indexOf(paused), 1);
    await startDispatcher('0.2');
    await eventually(() => (hook.receipts.length >= 3 ? true : undefined), {
      what: 'the held deliveries',
    });
    expect(new Set(hook.receipts.map((r) => r.id)).size).toBe(3);
  });

  it('keeps delivering to other endpoints while one endpoint hangs', async () => {
    await startDispatcher('5', { WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_CONCURRENCY: '8' });
    // Never answers: each attempt holds one of the endpoint's slots until it times out (2 s).
    let hung = 0;
    const hanging = createServer(() => {
      hung += 1;
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    servers.push(hanging);
    const slow = await subscribe(
      `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`,
    );
    const fast = await receiver(() => ({ status: 200 }));
    const quick = await subscribe(fast.url);
    await Promise.all(Array.from({ length: 30 }, (_, i) => slow.createRequest(`slow ${i}`)));
    await Promise.all(Array.from({ length: 6 }, (_, i) => quick.createRequest(`quick ${i}`)));
    await eventually(() => (fast.receipts.length >= 6 ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the other endpoint',
    });
    // Measured in the hanging endpoint's own progress, not in seconds: queued behind its thirty
    // jobs (two attempts at a time, each 2 s), the other endpoint would wait for most of them
    // to start; served in turn, it waits for none.
    expect(hung).toBeLessThan(12);
    hanging.closeAllConnections();
  });

  it('opens more requests at once to an endpoint that keeps answering 2xx at its usual speed, up to the most allowed', async () => {
    await startDispatcher('5', {
      WEBHOOK_ENDPOINT_CONCURRENCY: '2',
      WEBHOOK_ENDPOINT_CONCURRENCY_MAX: '6',
      WEBHOOK_CONCURRENCY: '16',
    });
    // Answers each request 40 ms after it arrives, however many are open: a receiver that keeps up.
    let open = 0;
    let mostOpen = 0;
    let answered = 0;
    const steady = createServer((req, res) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      req.resume();
      req.on('end', () => {
        setTimeout(() => {
          open -= 1;
          answered += 1;
          res.writeHead(204).end();
        }, 40);
      });
    });
    await new Promise<void>((resolve) => steady.listen(0, '127.0.0.1', resolve));
    servers.push(steady);
    const { createRequest } = await subscribe(
      `http://127.0.0.1:${(steady.address() as AddressInfo).port}/hook`,
    );
    const events = 60;
    await Promise.all(Array.from({ length: events }, (_, i) => createRequest(`steady ${i}`)));
    await eventually(() => (answered >= events ? true : undefined), {
      timeoutMs: 60_000,
      what: 'every delivery to the steady endpoint',
    });
    // Two slots to start with; with its slots all busy and its answers as quick as ever, it
    // earned more, but never more than WEBHOOK_ENDPOINT_CONCURRENCY_MAX.
    expect(mostOpen).toBeGreaterThan(2);
    expect(mostOpen).toBeLessThanOrEqual(6);
  });

  it('refuses more endpoints per integration than WEBHOOK_MAX_ENDPOINTS', async () => {
    await startDispatcher('0.2');
    const hook = await receiver(() => ({ status: 200 }));
    const { integration_id } = await subscribe(hook.url);
    for (let i = 1; i < 20; i += 1) {
      await call(
        nc,
        webhookOps.create,
        { integration_id, input: { url: `${hook.url}/${i}` } },
        opts,
      );
    }
    await expect(
      call(nc, webhookOps.create, { integration_id, input: { url: `${hook.url}/21` } }, opts),
    ).rejects.toMatchObject({ code: 'limit_reached', details: { limit: 20 } });
  });
});

/** A receiver that answers 204 `delayMs` after each POST has arrived. */
async function delayedReceiver(delayMs: number) {
  const receipts: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receipts.push(String(req.headers['webhook-id']));
      setTimeout(() => res.writeHead(204).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, receipts };
}

describe('first attempts straight from the event', () => {
  it('sends a first attempt without the queue, and leaves its log entry and no delivery record', async () => {
    const service = await startDispatcher('0.2');
    const records = service.store.db.collection<DeliveryDoc>('webhook_deliveries');
    const hook = await receiver(() => ({ status: 204 }));
    const { integration_id, endpoint, createRequest } = await subscribe(hook.url);
    const queued = queuedJobs(nc, endpoint.id);
    await createRequest();
    const [attempt] = (await attemptsLogged(integration_id, endpoint.id, 1)).data;
    await queued.stop();
    expect(attempt).toMatchObject({ attempt: 1, status_code: 204, next_attempt_at: null });
    expect(hook.receipts.map((r) => r.id)).toEqual([attempt?.event_id]);
    expect(queued.jobs).toEqual([]);
    expect(await records.findOne({ _id: `${endpoint.id}.${attempt?.event_id ?? ''}` })).toBeNull();
  });

  it('queues the deliveries of an endpoint that answers slowly', async () => {
    // Over OFFER_MAX_ANSWER_MS: the first delivery is offered (nothing is known of the endpoint
    // yet), the next one, once it has answered, queued.
    await startDispatcher('0.2');
    const slow = await delayedReceiver(OFFER_MAX_ANSWER_MS + 150);
    const a = await subscribe(slow.url);
    const queued = queuedJobs(nc, a.endpoint.id);
    await a.createRequest('one');
    await attemptsLogged(a.integration_id, a.endpoint.id, 1);
    expect(queued.jobs).toEqual([]);
    await a.createRequest('two');
    const logged = await attemptsLogged(a.integration_id, a.endpoint.id, 2);
    await queued.stop();
    expect(logged.data.map((attempt) => attempt.status_code)).toEqual([204, 204]);
    expect(queued.jobs.map((job) => [job.event.id, job.attempt, job.again])).toEqual([
      [logged.data[0]?.event_id, 1, undefined],
    ]);
  });

  it('queues the deliveries that find no room here for longer than OFFER_PATIENCE_MS', async () => {
    // Room for two attempts at work here (four held): of ten events at once, an endpoint that
    // answers within OFFER_MAX_ANSWER_MS but slower than OFFER_PATIENCE_MS gets the first ones
    // offered and the rest, tired of waiting for room, queued. All ten arrive, once each.
    await startDispatcher('0.2', { WEBHOOK_CONCURRENCY: '2' });
    const busy = await delayedReceiver(OFFER_PATIENCE_MS + 100);
    const b = await subscribe(busy.url);
    const queuedToo = queuedJobs(nc, b.endpoint.id);
    await Promise.all(Array.from({ length: 10 }, (_, i) => b.createRequest(`busy ${i}`)));
    await attemptsLogged(b.integration_id, b.endpoint.id, 10);
    await queuedToo.stop();
    expect(queuedToo.jobs.length).toBeGreaterThan(0);
    expect(queuedToo.jobs.length).toBeLessThan(10);
    expect(new Set(busy.receipts).size).toBe(10);
    expect(busy.receipts).toHaveLength(10);
  });

  it('keeps delivering to another integration while two endpoints have stopped answering', async () => {
    // Two endpoints that never answer, each sent as many events as the event consumer has
    // handlers: between them they would fill the room jobs wait in here, were it not that what
    // waits for a stalled endpoint is handed back (and offered first attempts hold at most half
    // of the handlers). Another integration's events keep flowing.
    await startDispatcher('5', { WEBHOOK_TIMEOUT_MS: '30000' });
    const hanging = await Promise.all(
      [0, 1].map(async () => {
        const server = createServer(() => undefined);
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        servers.push(server);
        return {
          server,
          ...(await subscribe(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)),
        };
      }),
    );
    await Promise.all(
      hanging.flatMap((endpoint) =>
        Array.from({ length: EVENT_CONCURRENCY }, (_, i) => endpoint.createRequest(`hang ${i}`)),
      ),
    );
    const fast = await receiver(() => ({ status: 200 }));
    const quick = await subscribe(fast.url);
    await Promise.all(Array.from({ length: 6 }, (_, i) => quick.createRequest(`quick ${i}`)));
    await eventually(() => (fast.receipts.length >= 6 ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the other integration',
    });
    // Measured in the hanging endpoints' own progress: none of their attempts has ended (each
    // takes the 30 s timeout), so the other integration's events did not wait for them.
    for (const { integration_id, endpoint } of hanging) {
      const attempts = await call(
        nc,
        webhookOps.attempts,
        { integration_id, id: endpoint.id, query: { limit: 10 } },
        opts,
      );
      expect(attempts.data).toEqual([]);
    }
    // No attempt hangs on for the dispatcher's stop: new connections are refused.
    for (const { server } of hanging) {
      server.close();
      server.closeAllConnections();
    }
  });

  it('queues every delivery of an event handled before, and finishes only a record an earlier try left', async () => {
    const service = await startDispatcher('0.2');
    const records = service.store.db.collection<DeliveryDoc>('webhook_deliveries');
    const hook = await receiver(() => ({ status: 204 }));
    const { integration_id, endpoint } = await subscribe(hook.url);
    const offered: string[] = [];
    const maker = deliveryMaker(
      endpointDirectory(service.store, service.bus, service.logger),
      deliveryQueue(service.bus, 1),
      (job) => {
        offered.push(job.event.id);
        return Promise.resolve(false);
      },
    );
    const event = (): EventDoc => ({
      _id: newId('evt'),
      integration_id,
      request_id: newId('req'),
      type: 'request.created',
      created_at: new Date(),
      body: '{}',
    });
    const [fresh, again, left] = [event(), event(), event()];
    // A try before this one left the record of a failed first attempt of `left`.
    await records.insertOne({
      _id: `${endpoint.id}.${left._id}`,
      endpoint_id: endpoint.id,
      event_id: left._id,
      status: 'pending',
      attempts: 1,
      next_attempt_at: new Date(),
      expires_bucket: null,
      created_at: new Date(),
      updated_at: new Date(),
    });
    const queued = queuedJobs(nc, endpoint.id);
    expect(await maker.fanOut(fresh, false)).toBe(1);
    expect(await maker.fanOut(again, true)).toBe(1);
    expect(await maker.fanOut(left, true)).toBe(1);
    await queued.stop();
    // Only the first handling offers; the one handled before queues, marked so.
    expect(offered).toEqual([fresh._id]);
    expect(queued.jobs.map((job) => [job.event.id, job.again])).toEqual([
      [fresh._id, undefined],
      [again._id, true],
      [left._id, true],
    ]);
    await attemptsLogged(integration_id, endpoint.id, 3);
    // The records' updates follow the attempts' inserts within the batch: wait for them too.
    const finished = await eventually(async () => {
      const recorded = await records.find({ endpoint_id: endpoint.id }).toArray();
      return recorded.every((record) => record.status === 'succeeded') ? recorded : undefined;
    });
    expect(finished.map((record) => [record.event_id, record.status, record.attempts])).toEqual([
      [left._id, 'succeeded', 1],
    ]);
  });

  it('writes a record as each attempt says: made, updated, finished only if there, or none', async () => {
    const service = await startDispatcher('0.2');
    const records = recorder(service.store);
    const collection = service.store.db.collection<DeliveryDoc>('webhook_deliveries');
    const base = `whe_${randomUUID().replace(/-/g, '')}`;
    const record = (id: string, status: DeliveryDoc['status']): DeliveryDoc => ({
      _id: `${base}.${id}`,
      endpoint_id: base,
      event_id: id,
      status,
      attempts: 1,
      next_attempt_at: null,
      expires_bucket: null,
      created_at: new Date(),
      updated_at: new Date(),
    });
    await records.record(null, record('a', 'pending'), 'insert');
    // One batch: `a` finished, `b` and `c` with no record, `d` made and finished in one go, `e`
    // updated (made afresh, as it is gone).
    await Promise.all([
      records.record(null, record('a', 'succeeded'), 'finish'),
      records.record(null, record('b', 'succeeded'), 'finish'),
      records.record(null, record('c', 'succeeded'), 'none'),
      records.record(null, record('d', 'pending'), 'insert'),
      records.record(null, record('d', 'succeeded'), 'finish'),
      records.record(null, record('e', 'failed'), 'update'),
    ]);
    await records.close();
    const stored = await collection.find({ endpoint_id: base }).sort({ _id: 1 }).toArray();
    expect(stored.map((doc) => [doc.event_id, doc.status])).toEqual([
      ['a', 'succeeded'],
      ['d', 'succeeded'],
      ['e', 'failed'],
    ]);
  });
});
