// A job whose step never ends (soak 72: a replica held 32 jobs to the end of the run, keeping them
// alive, so no other replica got them): given up after its bound, handed back, its room freed.
// Real NATS, FerretDB and HTTP; the one fault injected is a database write that never answers.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { natsOptions } from '@handoff/testkit';
import { AckPolicy, jetstream, jetstreamManager, type Consumer } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import type { Recorder } from '../src/store/deliveries.ts';
import { DeliveryWorker, stuckAfterMs } from '../src/delivery/worker.ts';
import { deliveryStack, jobFor } from './support/delivery-resources.ts';

const STUCK_AFTER_MS = 400;
const ACK_WAIT_MS = 1_000;

describe('a delivery job that never ends', () => {
  let stack: Awaited<ReturnType<typeof deliveryStack>>;
  let nc: NatsConnection;
  /** While true, every attempt's records are a write the database never answers. */
  let hang = true;
  let worker: DeliveryWorker;
  const logged: { msg: string; step?: string }[] = [];

  beforeAll(async () => {
    stack = await deliveryStack('stuck');
    nc = await connect(natsOptions());
    const records: Recorder = {
      record: (...args) =>
        hang ? new Promise<void>(() => undefined) : stack.resources.records.record(...args),
      close: () => stack.resources.records.close(),
    };
    const logger = stack.resources.logger.child({});
    const error = logger.error.bind(logger);
    logger.error = ((object: { step?: string }, msg?: string) => {
      logged.push({ msg: msg ?? '', step: object.step });
      error(object, msg);
    }) as typeof logger.error;
    worker = new DeliveryWorker(
      { ...stack.resources, records, logger },
      {
        concurrency: 1,
        endpointConcurrency: 1,
        endpointConcurrencyMax: 1,
        maxOffered: 1,
        ackWaitMs: ACK_WAIT_MS,
        stuckAfterMs: STUCK_AFTER_MS,
      },
    );
  });
  afterAll(async () => {
    hang = false;
    await worker.drain();
    await nc.close();
    await stack.stop();
  });

  it('is given up after two minutes at least, or four ack waits', () => {
    expect(stuckAfterMs(20_000)).toBe(120_000);
    expect(stuckAfterMs(60_000)).toBe(240_000);
  });

  it('fails an offered attempt stuck while recording, and frees its room for the next', async () => {
    hang = true;
    const hook = await stack.receiver(204);
    const { doc } = await stack.endpoint(hook.url);
    const first = jobFor(doc._id);
    await expect(worker.offer(first)).rejects.toThrow(/stuck while recording/);
    expect(hook.receipts.map((receipt) => receipt.id)).toEqual([first.event.id]);
    expect(logged).toContainEqual({
      msg: 'delivery job stuck; given up here and handed back to be attempted again',
      step: 'recording',
    });
    // The worker has room for one job: the next is taken only because the stuck one's was freed.
    hang = false;
    const second = jobFor(doc._id);
    await expect(worker.offer(second)).resolves.toBe(true);
    expect(hook.receipts.map((receipt) => receipt.id)).toEqual([first.event.id, second.event.id]);
  });

  it('hands a queued job back to the server at once, instead of keeping it alive', async () => {
    hang = true;
    const hook = await stack.receiver(204);
    const { doc } = await stack.endpoint(hook.url);
    const job = jobFor(doc._id);
    const queue = await ownQueue(nc);
    await queue.publish(JSON.stringify(job));
    const msg = await queue.consumer.next({ expires: 5_000 });
    if (!msg) throw new Error('the job was not handed out');
    worker.fromQueue(msg, job);
    // Kept alive while at work; without the bound, every sign of life would hold it here.
    const again = await queue.consumer.next({ expires: 10 * ACK_WAIT_MS });
    expect(again?.info.redelivered).toBe(true);
    expect(again?.json()).toEqual(job);
    again?.ack();
    await queue.remove();
  });
});

/** A stream and durable consumer of this test's own, shaped as the delivery queue is. */
async function ownQueue(nc: NatsConnection) {
  const name = `STUCK_${randomUUID().replaceAll('-', '')}`;
  const subject = `test.stuck.${name}`;
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name, subjects: [subject] });
  await jsm.consumers.add(name, {
    durable_name: 'jobs',
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(ACK_WAIT_MS),
  });
  const js = jetstream(nc);
  const consumer: Consumer = await js.consumers.get(name, 'jobs');
  return {
    consumer,
    publish: (data: string) => js.publish(subject, data),
    remove: () => jsm.streams.delete(name),
  };
}
