// A group commit whose write never ends, on a real server: the MongoDB driver waits for its
// socket's `drain` when a command does not fit the socket's buffers, and when the connection is
// closed from the driver's side meanwhile (the pool cleared after the heartbeat timed out) the
// wait never ends. Seen in the chaos runs: a dispatcher replica's attempts log stopped for good.
// Here a TCP relay between the driver and the test's FerretDB stops passing bytes, as a server
// stalled on its disk or a network that drops everything would.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { databaseRelay, uniqueDatabase, type DatabaseRelay } from '@handoff/testkit';
import { MongoClient, type Collection } from 'mongodb';
import { groupedInserts, GroupCommitTimeoutError } from '../src/index.ts';

describe('a group commit on a server that stops answering', () => {
  let relay: DatabaseRelay;
  let client: MongoClient;
  let things: Collection<{ _id: string; blob: string }>;

  beforeAll(async () => {
    relay = await databaseRelay();
    const url = new URL(relay.url);
    url.searchParams.set('directConnection', 'true');
    // The heartbeat gives up on the stalled server quickly, clearing the pool as it does.
    url.searchParams.set('connectTimeoutMS', '1000');
    url.searchParams.set('heartbeatFrequencyMS', '500');
    url.searchParams.set('serverSelectionTimeoutMS', '2000');
    client = new MongoClient(url.toString(), { retryWrites: false });
    await client.connect();
    things = client.db(uniqueDatabase('stall')).collection('things');
  });
  afterAll(async () => {
    await client.close(true);
    await relay.close();
  });

  it('fails the batch under way after its timeout, instead of holding every later one', async () => {
    const inserts = groupedInserts(things, { timeoutMs: 3_000 });
    await inserts.insert({ _id: 'warm', blob: '' });
    relay.stall();
    // Some megabytes in one command: more than the sockets between them buffer, so the driver
    // waits for its socket to drain, which the stalled relay never lets it.
    const blob = 'x'.repeat(4 * 2 ** 20);
    const stuck = Promise.allSettled(
      [1, 2, 3].map((n) => inserts.insert({ _id: `big-${n}`, blob })),
    );
    // Added once that batch is being written: it waits for the next one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const behind = inserts.insert({ _id: 'behind', blob: '' });
    const results = await stuck;
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const [first] = results;
    expect(first?.status === 'rejected' ? first.reason : undefined).toBeInstanceOf(
      GroupCommitTimeoutError,
    );
    // The one behind them goes in the next batch, which fails in turn (the server is still
    // stalled: a new connection cannot be made), instead of waiting behind the first for ever.
    await expect(behind).rejects.toThrow();
  }, 30_000);
});
