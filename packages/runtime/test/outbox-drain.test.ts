import { beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@handoff/contracts';
import type { Collection } from 'mongodb';
import { withOutbox, type OutboxDocument, type OutboxWriterDoc } from '../src/index.ts';
import { startDrain, sweepOnce, type DrainParts } from '../src/outbox/drain.ts';
import { keptDocument } from '../src/outbox/kept.ts';
import { removals } from '../src/outbox/removal.ts';
import { WriterRegistry } from '../src/outbox/writers.ts';
import { logger, testMessage, useOutboxServers } from './support/outbox-servers.ts';

const servers = useOutboxServers('outbox-drain');
const keptAt = { collection: 'drain_kept', documentId: 'kept_doc' };
let docs: Collection<OutboxDocument>;
let kept: Collection<OutboxDocument>;
let writers: Collection<OutboxWriterDoc>;
beforeAll(() => {
  docs = servers.store.db.collection('drain_docs');
  kept = servers.store.db.collection('drain_kept');
  writers = servers.store.db.collection('drain_writers');
});

/** Drain parts whose publishes are noted, not sent: the sweep's choices are what is tested. */
function parts(extra: Partial<DrainParts> = {}) {
  const published: string[] = [];
  const removing = removals({ logger, serialize: servers.store.serialize });
  const registry = new WriterRegistry({
    writers,
    kept: [kept],
    logger,
    deadAfterMs: 1_000,
    heartbeatMs: 20,
  });
  const drain: DrainParts = {
    collections: [docs, kept],
    graceMs: 2_000,
    publishRemoved(collection, documentId, message) {
      published.push(message.id);
      removing.remove({ collection, documentId, message });
      return Promise.resolve();
    },
    publishKept(message) {
      published.push(message.id);
      registry.published(message.id);
      return Promise.resolve();
    },
    removals: removing,
    registry,
    logger,
    ...extra,
  };
  return { drain, published, registry };
}

describe('one sweep', () => {
  it('publishes what a crash left, what failed, and what a dead writer left; not what is young', async () => {
    const { drain, published, registry } = parts();
    const [old, young, failed, adopted] = [
      testMessage(60_000),
      testMessage(),
      testMessage(),
      testMessage(5_000),
    ];
    const [crashed, inFlight, emptied] = [newId('msg'), newId('msg'), newId('msg')];
    await docs.insertMany([
      withOutbox({ _id: crashed }, [old]),
      withOutbox({ _id: inFlight }, [young]),
      { _id: emptied, outbox: [], outbox_pending: true },
    ]);
    registry.mark([failed], keptAt);
    registry.failed(kept, 'kept_doc', [failed]);
    const gone = `w_gone_${newId('msg')}`;
    const at = Date.now() - 5_000;
    await writers.insertOne({ _id: gone, beat_at: new Date(at), low_water: new Date(at) });
    await kept.insertOne({
      _id: newId('msg'),
      outbox: [adopted],
      outbox_window: `${gone}:${Math.floor(at / 1_000)}`,
    });

    expect(await sweepOnce(drain)).toEqual({ pending: 1, left: 1, adopted: 1, settled: 0 });
    expect(published).toEqual([old.id, failed.id, adopted.id]);
    // Removed with the sweep's flush; the stale marker dropped; the young message left alone.
    expect(await docs.findOne({ _id: crashed })).toEqual({ _id: crashed, outbox: [] });
    expect(await docs.findOne({ _id: emptied })).toEqual({ _id: emptied, outbox: [] });
    expect(await docs.findOne({ _id: inFlight })).toMatchObject({ outbox: [young] });
    await docs.deleteOne({ _id: inFlight });
    expect(await sweepOnce(drain)).toEqual({ pending: 0, left: 0, adopted: 0, settled: 0 });
  });
});

describe('a kept write whose call never published', () => {
  it('is published by the sweep when its document holds it', async () => {
    const { drain, published, registry } = parts({ graceMs: 0 });
    const message = testMessage();
    await kept.insertOne(
      keptDocument(registry, kept.collectionName, { _id: newId('msg') }, [message]),
    );
    expect((await sweepOnce(drain)).settled).toBe(1);
    expect(published).toContain(message.id);
    expect((await sweepOnce(drain)).settled).toBe(0);
  });
});

describe('the drain loop', () => {
  it('sweeps and beats on its own, and leaves the registry when it stops with nothing left', async () => {
    const { drain, published, registry } = parts();
    await registry.beat();
    const entered = (await writers.findOne({ _id: registry.id }))?.beat_at.getTime() ?? 0;
    const stop = startDrain(drain, 20);
    const old = testMessage(60_000);
    const id = newId('msg');
    await docs.insertOne(withOutbox({ _id: id }, [old]));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(published).toContain(old.id);
    const beat = (await writers.findOne({ _id: registry.id }))?.beat_at.getTime() ?? 0;
    expect(beat).toBeGreaterThan(entered);
    await stop();
    expect(await docs.findOne({ _id: id })).toEqual({ _id: id, outbox: [] });
    expect(await writers.countDocuments({ _id: registry.id })).toBe(0);
  });

  it('stays in the registry when it stops with a kept message unpublished', async () => {
    const { drain, registry } = parts();
    registry.mark([testMessage()], keptAt);
    await registry.beat();
    const stop = startDrain(drain, 60_000);
    await stop();
    expect(await writers.countDocuments({ _id: registry.id })).toBe(1);
    await writers.deleteOne({ _id: registry.id });
  });
});
