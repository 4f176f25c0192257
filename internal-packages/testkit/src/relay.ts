import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { testServers } from './fixtures.ts';

/** The worker's MongoDB-wire server behind a TCP relay that a test can make stop answering. */
export interface DatabaseRelay {
  /** The server's URL (credentials included), through the relay. */
  url: URL;
  /** A partition: every connection dropped, new ones taken and never answered. */
  cut(): void;
  /**
   * A server that stops answering: every connection kept, no byte passed either way, new ones
   * taken and never answered.
   */
  stall(): void;
  close(): Promise<void>;
}

/** Starts a relay to the worker's MongoDB-wire server ({@link DatabaseRelay}). */
export async function databaseRelay(): Promise<DatabaseRelay> {
  const target = new URL(testServers().mongoUrl);
  const pairs = new Set<[Socket, Socket | undefined]>();
  let mode: 'pass' | 'cut' | 'stall' = 'pass';
  const server = createServer((client) => {
    client.on('error', () => client.destroy());
    if (mode !== 'pass') {
      // Taken, and never answered.
      const pair: [Socket, undefined] = [client, undefined];
      pairs.add(pair);
      client.on('close', () => pairs.delete(pair));
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', drop).on('close', drop);
    client.on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const destroyAll = () => {
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream?.destroy();
    }
  };
  return {
    url,
    cut() {
      mode = 'cut';
      destroyAll();
    },
    stall() {
      mode = 'stall';
      for (const [client, upstream] of pairs) {
        if (!upstream) continue;
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
