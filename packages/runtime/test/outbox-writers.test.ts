import { beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@handoff/contracts';
import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import {
  OUTBOX_WINDOW_MS,
  UNWRITTEN_AFTER_MS,
  type OutboxDocument,
  type OutboxMessage,
  type OutboxWriterDoc,
} from '../src/index.ts';
import { keptDocument } from '../src/outbox/kept.ts';
import { windowsOf, WriterRegistry } from '../src/outbox/writers.ts';
import { logger, testMessage, useOutboxServers } from './support/outbox-servers.ts';

const servers = useOutboxServers('outbox-writers');
const at = { collection: 'writers_kept', documentId: 'doc' };
let kept: Collection<OutboxDocument>;
let writers: Collection<OutboxWriterDoc>;
beforeAll(() => {
  kept = servers.store.db.collection('writers_kept');
  writers = servers.store.db.collection('writers_registry');
});

const registry = (deadAfterMs?: number) =>
  new WriterRegistry({
    writers,
    kept: [kept],
    logger,
    ...(deadAfterMs !== undefined ? { deadAfterMs } : {}),
  });

describe("a writer's own marks", () => {
  it('names its window of the second, and holds its low-water mark there until the publish', () => {
    const writer = registry();
    const marked = Date.now();
    const message = testMessage();
    expect(writer.mark([message], at)).toBe(
      `${writer.id}:${Math.floor(marked / OUTBOX_WINDOW_MS)}`,
    );
    const later = marked + 5_000;
    expect(writer.lowWater(later).getTime()).toBeGreaterThanOrEqual(marked);
    expect(writer.lowWater(later).getTime()).toBeLessThan(later);
    writer.published(message.id);
    expect(writer.lowWater(later).getTime()).toBe(later);
    expect(writer.publishedHere(message.id)).toBe(true);
  });

  it('keeps the messages whose publish failed, at their mark, until a publish', () => {
    const writer = registry();
    const [first, second] = [testMessage(), testMessage()];
    const marked = Date.now();
    writer.mark([first, second], at);
    writer.failed(kept, 'doc', [second]);
    expect(writer.left().map((left) => left.message.id)).toEqual([second.id]);
    writer.published(first.id);
    const later = marked + UNWRITTEN_AFTER_MS * 2;
    // A failed publish holds the mark however long: only a publish ends it.
    expect(writer.lowWater(later).getTime()).toBeLessThanOrEqual(Date.now());
    writer.published(second.id);
    expect(writer.left()).toEqual([]);
    expect(writer.lowWater(later).getTime()).toBe(later);
  });
});

describe('settling marks whose publish never came', () => {
  const noted = () => {
    const published: string[] = [];
    const publish = (message: OutboxMessage) => {
      published.push(message.id);
      return Promise.resolve();
    };
    return { published, publish };
  };

  it('publishes a message whose write landed though its call saw it fail', async () => {
    const writer = registry();
    const message = testMessage();
    const id = newId('msg');
    // As a call writes it; then the call's connection is lost, so it never publishes.
    await kept.insertOne(keptDocument(writer, kept.collectionName, { _id: id }, [message]));
    const { published, publish } = noted();
    // Within the grace period it is left to the call.
    expect(await writer.settle(publish, 60_000)).toBe(0);
    expect(await writer.settle(publish, 0)).toBe(1);
    expect(published).toEqual([message.id]);
    expect(writer.publishedHere(message.id)).toBe(true);
    const later = Date.now() + 1_000;
    expect(writer.lowWater(later).getTime()).toBe(later);
    expect(await writer.settle(publish, 0)).toBe(0);
  });

  it('drops the mark of a write that never landed, once it is older than the write could be', async () => {
    const writer = registry();
    const message = testMessage();
    writer.mark([message], { collection: kept.collectionName, documentId: newId('msg') });
    const marked = Date.now();
    const { published, publish } = noted();
    expect(await writer.settle(publish, 0)).toBe(0);
    // Not found yet: it may still land, so it still holds the low-water mark.
    expect(writer.lowWater(marked + 5_000).getTime()).toBeLessThanOrEqual(marked);
    const muchLater = marked + UNWRITTEN_AFTER_MS + 1_000;
    expect(await writer.settle(publish, 0, muchLater)).toBe(0);
    expect(writer.lowWater(muchLater).getTime()).toBe(muchLater);
    expect(published).toEqual([]);
  });
});

describe("a dead writer's windows", () => {
  it('run from its low-water mark to the last second it can have written in', () => {
    const gone = { _id: 'w_x', low_water: new Date(10_500), beat_at: new Date(12_000) };
    expect(windowsOf(gone, 2_000)).toEqual(['w_x:10', 'w_x:11', 'w_x:12', 'w_x:13', 'w_x:14']);
  });
});

describe('the registry, on a real database', () => {
  it('enters the writer with its beat, and lets it leave once all is published', async () => {
    const writer = registry();
    const message = testMessage();
    writer.mark([message], at);
    await writer.beat();
    expect(await writers.findOne({ _id: writer.id })).toMatchObject({
      beat_at: expect.any(Date),
      low_water: expect.any(Date),
    });
    expect(await writer.leave()).toBe('stayed');
    expect(await writers.countDocuments({ _id: writer.id })).toBe(1);
    writer.published(message.id);
    expect(await writer.leave()).toBe('left');
    expect(await writers.countDocuments({ _id: writer.id })).toBe(0);
  });

  it('publishes the windows of a writer that stopped beating, and forgets it', async () => {
    const writtenAt = Date.now() - 5_000;
    const gone = `w_gone_${randomUUID()}`;
    const window = (at: number) => `${gone}:${Math.floor(at / OUTBOX_WINDOW_MS)}`;
    const [a, b, old] = [testMessage(5_000), testMessage(5_000), testMessage(7_000)];
    await writers.insertOne({
      _id: gone,
      beat_at: new Date(writtenAt),
      low_water: new Date(writtenAt),
    });
    await kept.insertMany([
      { _id: newId('msg'), outbox: [a, b], outbox_window: window(writtenAt) },
      // Before its low-water mark: published already.
      { _id: newId('msg'), outbox: [old], outbox_window: window(writtenAt - 2_000) },
    ]);
    const adopter = registry(1_000);
    const published: OutboxMessage[] = [];
    const publish = (message: OutboxMessage) => {
      published.push(message);
      return Promise.resolve();
    };
    expect(await adopter.adoptDead(publish)).toBe(2);
    expect(published.map((m) => m.id).sort()).toEqual([a.id, b.id].sort());
    expect(await writers.findOne({ _id: gone })).toBeNull();
    expect(await adopter.adoptDead(publish)).toBe(0);
  });

  it('is no registry without kept collections', async () => {
    const none = new WriterRegistry({ writers: undefined, kept: [], logger });
    expect(none.registered).toBe(false);
    await none.beat();
    expect(await none.adoptDead(() => Promise.resolve())).toBe(0);
    expect(await none.leave()).toBe('unregistered');
  });
});
