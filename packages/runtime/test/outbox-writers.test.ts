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
import { windowsOf, WriterRegistry } from '../src/outbox/writers.ts';
import { logger, testMessage, useOutboxServers } from './support/outbox-servers.ts';

const servers = useOutboxServers('outbox-writers');
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
    expect(writer.mark([message])).toBe(`${writer.id}:${Math.floor(marked / OUTBOX_WINDOW_MS)}`);
    const later = marked + 5_000;
    expect(writer.lowWater(later).getTime()).toBeGreaterThanOrEqual(marked);
    expect(writer.lowWater(later).getTime()).toBeLessThan(later);
    writer.published(message.id);
    expect(writer.lowWater(later).getTime()).toBe(later);
    expect(writer.publishedHere(message.id)).toBe(true);
  });

  it('drops the mark of a write that never published (it failed)', () => {
    const writer = registry();
    writer.mark([testMessage()]);
    const muchLater = Date.now() + UNWRITTEN_AFTER_MS + 1_000;
    expect(writer.lowWater(muchLater).getTime()).toBe(muchLater);
  });

  it('keeps the messages whose publish failed, at their mark, until a publish', () => {
    const writer = registry();
    const [first, second] = [testMessage(), testMessage()];
    const marked = Date.now();
    writer.mark([first, second]);
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
    writer.mark([message]);
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
