import { describe, expect, it } from '@jest/globals';
import { KEPT_FOR_MS, OUTBOX_WINDOW_MS, type OutboxFields } from '../src/index.ts';
import { keptDocument, keptUpdate } from '../src/outbox/kept.ts';
import { WriterRegistry } from '../src/outbox/writers.ts';
import { logger, testMessage } from './support/outbox-servers.ts';

const registry = () => new WriterRegistry({ writers: undefined, kept: [], logger });
const at = { collection: 'kept', documentId: 'd1' };

describe('kept documents', () => {
  it('are written with their messages and the writer window of now, which holds the low-water mark', () => {
    const writer = registry();
    const message = testMessage();
    const doc = keptDocument(writer, 'kept', { _id: 'd1', n: 1 }, [message]);
    expect(doc).toEqual({
      _id: 'd1',
      n: 1,
      outbox: [message],
      outbox_window: expect.stringMatching(new RegExp(`^${writer.id}:\\d+$`)),
    });
    expect(writer.lowWater(Date.now() + 1_000).getTime()).toBeLessThanOrEqual(Date.now());
    expect(keptDocument(writer, 'kept', { _id: 'd2' }, [])).toEqual({ _id: 'd2', outbox: [] });
  });

  it('keep the recent messages not published here and the recent windows in a move, and the new ones', () => {
    const writer = registry();
    const now = Date.now();
    const [recent, publishedHere, stale, added] = [
      testMessage(1_000),
      testMessage(1_000),
      testMessage(KEPT_FOR_MS + 1_000),
      testMessage(),
    ];
    writer.published(publishedHere.id);
    const second = (at: number) => Math.floor(at / OUTBOX_WINDOW_MS);
    const before: OutboxFields = {
      outbox: [recent, publishedHere, stale],
      outbox_window: [`w_old:${second(now - KEPT_FOR_MS - 5_000)}`, `w_recent:${second(now)}`],
    };
    const { update, unchanged } = keptUpdate(writer, at, before, { $set: { n: 2 } }, [added], now);
    expect(unchanged).toEqual({ outbox: { $size: 3 } });
    expect(update.$set.outbox).toEqual([recent, added]);
    expect(update.$set.outbox_window).toEqual([
      `w_recent:${second(now)}`,
      expect.stringMatching(new RegExp(`^${writer.id}:`)),
    ]);
    expect(update.$set).toMatchObject({ n: 2 });
  });

  it('are moved without a message as the update says, on the same compare-and-set', () => {
    const { update, unchanged } = keptUpdate(registry(), at, {}, { $set: { n: 3 } }, []);
    expect(update).toEqual({ $set: { n: 3 } });
    expect(unchanged).toEqual({ outbox: { $exists: false } });
  });
});
