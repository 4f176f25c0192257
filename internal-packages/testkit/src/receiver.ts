// A local HTTP receiver for POSTs: webhook deliveries in the tests that follow them, and the bench's
// deliveries and raw POSTs. In this process, over loopback, keep-alive.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST as it arrived. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** `process.hrtime.bigint()` when the whole body had arrived. */
  receivedAt: bigint;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The message of each error `onReceived` threw, in arrival order. */
  readonly failures: readonly string[];
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** The answer to a POST that `onReceived` took; 204 unless told. */
  status?: number;
  /**
   * The answer when `onReceived` threw; `status` unless told (a non-2xx answer only makes a
   * webhook sender retry, so a receiver that records what it found wrong keeps answering 2xx).
   */
  failedStatus?: number;
  /** How long it takes to answer, in ms (0: at once): a receiver doing work before it answers. */
  delayMs?: number;
}

/**
 * An HTTP server on 127.0.0.1 (a free port) that reads each request's body, hands it to
 * `onReceived` and answers (at once, or `delayMs` later): `status`, or `failedStatus` when
 * `onReceived` threw, whose error then joins `failures`.
 */
export async function startReceiver(
  onReceived: (received: Received) => void,
  options: ReceiverOptions = {},
): Promise<Receiver> {
  const ok = options.status ?? 204;
  const delayMs = options.delayMs ?? 0;
  const failures: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const receivedAt = process.hrtime.bigint();
      let status = ok;
      try {
        onReceived({
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          receivedAt,
        });
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
        status = options.failedStatus ?? ok;
      }
      if (delayMs > 0) setTimeout(() => res.writeHead(status).end(), delayMs);
      else res.writeHead(status).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failures,
    async close() {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
