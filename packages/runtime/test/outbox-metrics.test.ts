import { afterAll, describe, expect, it } from '@jest/globals';
import { ensureStream } from '@handoff/bus';
import { newId } from '@handoff/contracts';
import { parsePrometheusText, renderMetrics, type PrometheusSample } from '@handoff/observability';
import { StorageType } from '@nats-io/jetstream';
import { randomBytes } from 'node:crypto';
import type { Collection } from 'mongodb';
import {
  createOutbox,
  outboxMessage,
  withOutbox,
  type OutboxDocument,
  type OutboxWriterDoc,
} from '../src/index.ts';
import { logger, useOutboxServers } from './support/outbox-servers.ts';

// The outbox backlog as a scrape reads it: kept messages marked for their write, left by a
// publish that failed (no stream took their subject yet), and what the sweep then found.
const servers = useOutboxServers('outbox-metrics');
const token = randomBytes(4).toString('hex');
const stream = `T_OBACKLOG_${token}`;

afterAll(async () => {
  await servers.bus.jsm.streams.delete(stream).catch(() => undefined);
});

const scrape = async (): Promise<PrometheusSample[]> => parsePrometheusText(await renderMetrics());

const valueOf = (samples: PrometheusSample[], name: string, labels: Record<string, string>) =>
  samples.find(
    (s) =>
      s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  )?.value;

/** A message on a subject no stream takes until the test makes one, written `ageMs` ago. */
const message = (ageMs = 0) => {
  const id = newId('evt');
  return {
    ...outboxMessage(id, `test.obacklog.${token}.${id}`, { id }),
    created_at: new Date(Date.now() - ageMs),
  };
};

describe('outbox backlog metrics', () => {
  it('counts kept messages marked and left, and what the sweep found', async () => {
    const { bus, store } = servers;
    const kept: Collection<OutboxDocument> = store.db.collection('backlog_kept');
    const plain: Collection<OutboxDocument> = store.db.collection('backlog_plain');
    const outbox = createOutbox({
      js: bus.js,
      logger,
      collections: [kept, plain],
      kept: [kept],
      writers: store.db.collection<OutboxWriterDoc>('backlog_writers'),
      serialize: store.serialize,
      // The test sweeps itself.
      sweepIntervalMs: 600_000,
    });
    await outbox.register();
    const stop = outbox.start();
    try {
      let samples = await scrape();
      expect(valueOf(samples, 'handoff_outbox_unpublished', { state: 'marked' })).toBe(0);
      expect(valueOf(samples, 'handoff_outbox_unpublished', { state: 'left' })).toBe(0);
      expect(valueOf(samples, 'handoff_outbox_swept', { found: 'pending' })).toBe(0);

      const messages = [message(), message()];
      const doc = outbox.withMessages(
        kept,
        { _id: `doc-${randomBytes(4).toString('hex')}` },
        messages,
      );
      await kept.insertOne(doc);
      samples = await scrape();
      expect(valueOf(samples, 'handoff_outbox_unpublished', { state: 'marked' })).toBe(2);

      // No stream takes the subject: the publish fails, and the writer keeps them for the sweep.
      await expect(outbox.publish(kept, doc._id, messages)).rejects.toThrow();
      samples = await scrape();
      expect(valueOf(samples, 'handoff_outbox_unpublished', { state: 'marked' })).toBe(0);
      expect(valueOf(samples, 'handoff_outbox_unpublished', { state: 'left' })).toBe(2);

      // A document whose call never published its message, older than the grace period.
      await plain.insertOne(
        withOutbox({ _id: `doc-${randomBytes(4).toString('hex')}` }, [message(10_000)]),
      );
      await ensureStream(bus.jsm, {
        name: stream,
        subjects: [`test.obacklog.${token}.>`],
        storage: StorageType.Memory,
      });
      expect(await outbox.sweep()).toBe(3);
      samples = await scrape();
      expect(valueOf(samples, 'handoff_outbox_unpublished', { state: 'left' })).toBe(0);
      expect(valueOf(samples, 'handoff_outbox_swept', { found: 'left' })).toBe(2);
      expect(valueOf(samples, 'handoff_outbox_swept', { found: 'pending' })).toBe(1);
      expect(valueOf(samples, 'handoff_outbox_swept', { found: 'adopted' })).toBe(0);

      const values = samples
        .filter((s) => s.name.startsWith('handoff_outbox_'))
        .flatMap((s) => Object.values(s.labels));
      expect(values.length).toBeGreaterThan(0);
      expect(values.filter((value) => /[a-z]+_[0-9a-z]{20,}/.test(value))).toEqual([]);
    } finally {
      await stop();
    }
  });
});
