import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { requestOps } from '@handoff/contracts';
import { OUTBOX_DEAD_AFTER_MS, OUTBOX_SWEEP_MS, OUTBOX_WRITERS, sha256Hex } from '@handoff/runtime';
import { crashableService, eventually, exited, serviceEnv, uniqueDatabase } from '@handoff/testkit';
import type { NatsConnection } from '@nats-io/transport-node';
import type { MongoClient } from 'mongodb';
import { fileURLToPath } from 'node:url';
import { requestEvents } from './support/stack.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const database = uniqueDatabase('crash');
let nc: NatsConnection;
let mongo: MongoClient;
const intake = crashableService({
  service: 'intake',
  main: MAIN,
  env: () => serviceEnv('intake', database),
});

beforeAll(async () => {
  ({ nc, mongo } = await intake.connect());
});

afterAll(() => intake.close());

/** The intake service as its own process, as in production, optionally with a fault armed. */
const startIntake = (fault?: string) => intake.start(nc, fault);

const eventsFor = (requestId: string) =>
  requestEvents(nc, requestId, 'handoff.events.request.created');

/**
 * How long the restarted service may take to adopt what the crashed process wrote: its registry
 * entry counts as dead once unrefreshed for OUTBOX_DEAD_AFTER_MS, and the next sweep adopts it;
 * three times that, for a busy machine.
 */
const ADOPTED_WITHIN_MS = 3 * (OUTBOX_DEAD_AFTER_MS + OUTBOX_SWEEP_MS);

/** The crashed process's entry in the writer registry, until another process adopts it. */
async function writerEntry(outboxWindow: unknown) {
  const writer = String([outboxWindow].flat()[0]).split(':')[0];
  return mongo
    .db(database)
    .collection(OUTBOX_WRITERS)
    .findOne({ _id: writer as never });
}

async function createAndCrash(fault: string) {
  const child = await startIntake(fault);
  const attempt = call(
    nc,
    requestOps.create,
    {
      integration_id: 'int_crash',
      token_hash: sha256Hex(`hrt_${fault}`),
      input: { message: fault },
    },
    { timeoutMs: 3_000 },
  );
  await expect(attempt).rejects.toMatchObject({ code: 'service_unavailable' });
  expect(await exited(child)).toBe(86);
  const doc = await mongo.db(database).collection('requests').findOne({ message: fault });
  if (!doc) throw new Error('the write did not happen before the crash');
  return {
    id: String(doc._id),
    pending: (doc.outbox as unknown[] | undefined)?.length ?? 0,
    window: doc.outbox_window as unknown,
  };
}

describe('a crash between the write and the publish', () => {
  it(
    'loses nothing: the restarted service adopts what the crashed one wrote and publishes it, once',
    async () => {
      const { id, pending, window } = await createAndCrash('crash-after-write');
      expect(pending).toBe(1);
      expect(await writerEntry(window)).not.toBeNull();
      expect(await eventsFor(id)).toHaveLength(0);
      const restarted = await startIntake();
      const events = await eventually(
        async () => {
          const found = await eventsFor(id);
          return found.length > 0 ? found : undefined;
        },
        { timeoutMs: ADOPTED_WITHIN_MS, what: 'the adopted request.created' },
      );
      expect(events).toHaveLength(1);
      expect(events[0]?.data.sequence).toBe(1);
      // Adopted: the crashed writer's entry is gone, and the event stays in its request.
      await eventually(async () => ((await writerEntry(window)) === null ? true : undefined));
      const doc = await mongo
        .db(database)
        .collection('requests')
        .findOne({ _id: id as never });
      expect(doc?.outbox).toHaveLength(1);
      expect(doc?.outbox_pending).toBeUndefined();
      await intake.stop(restarted);
    },
    2 * ADOPTED_WITHIN_MS,
  );

  it(
    'publishes nothing twice under one id when it crashes after publishing',
    async () => {
      const { id, pending, window } = await createAndCrash('crash-after-publish');
      expect(pending).toBe(1);
      const restarted = await startIntake();
      // The restarted service adopts the crashed writer and publishes its message again.
      await eventually(async () => ((await writerEntry(window)) === null ? true : undefined), {
        timeoutMs: ADOPTED_WITHIN_MS,
        what: 'the crashed writer adopted',
      });
      const events = await eventsFor(id);
      expect(events).toHaveLength(1);
      expect(await intake.stop(restarted)).toBe(0);
    },
    2 * ADOPTED_WITHIN_MS,
  );
});
