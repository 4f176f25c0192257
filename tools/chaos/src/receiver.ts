// The agents' webhook endpoints of a chaos run: one HTTP server on loopback, one path per endpoint.
// `steady` answers every delivery; `flaky` sometimes answers 500 and sometimes never answers (the
// dispatcher's timeout ends the attempt). A `fill` makes an endpoint stop answering for a while,
// so its deliveries pile up in the queue. Only a delivery this server answered 2xx, with a valid
// signature, counts as received.
import { verifyWebhook } from '@handoff/sdk';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Random } from './random.ts';

export type EndpointMode = 'steady' | 'flaky';

/** Of a flaky endpoint's deliveries: answered 500, and never answered. */
export const FLAKY = { failRate: 0.05, hangRate: 0.02 } as const;

/** An event as an endpoint took it (answered 2xx). */
export interface Taken {
  eventId: string;
  type: string;
  requestId: string;
  sequence: number;
  objectId: string | undefined;
}

/** What one endpoint received. */
export interface EndpointLog {
  mode: EndpointMode;
  /** Every delivery answered 2xx, in arrival order (duplicates included). */
  taken: Taken[];
  /** Deliveries whose signature did not verify (each is a finding). */
  badSignatures: number;
  /** Deliveries answered 500 or left unanswered on purpose. */
  refused: number;
}

export interface Receivers {
  url: string;
  /** The endpoint's path's URL: `<url>/hooks/<name>`. */
  urlOf(name: string): string;
  /** Registers an endpoint's mode, and its signing secret once the API gave it. */
  add(name: string, mode: EndpointMode, secret: string): void;
  /** Stops answering `name` for `ms`: its attempts hang until then (or until the sender gives up). */
  fill(name: string, ms: number): void;
  logs(): ReadonlyMap<string, EndpointLog>;
  /** Deliveries under way right now (held by a fill or a hang included). */
  inFlight(): number;
  close(): Promise<void>;
}

interface Endpoint extends EndpointLog {
  secret: string;
  filledUntil: number;
}

export async function startReceivers(random: Random): Promise<Receivers> {
  const endpoints = new Map<string, Endpoint>();
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    const name = /^\/hooks\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    const endpoint = name === undefined ? undefined : endpoints.get(name);
    const chunks: Buffer[] = [];
    inFlight += 1;
    res.once('close', () => (inFlight -= 1));
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (!endpoint || req.method !== 'POST') return void res.writeHead(404).end();
      const body = Buffer.concat(chunks);
      const answer = () => take(endpoint, body, req.headers, res);
      const wait = endpoint.filledUntil - Date.now();
      if (wait > 0) {
        endpoint.refused += 1;
        // Held until the fill ends; by then the sender has usually given up and closed.
        setTimeout(() => (res.destroyed ? undefined : answer()), wait).unref();
        return;
      }
      if (endpoint.mode === 'flaky') {
        const roll = random();
        if (roll < FLAKY.failRate) {
          endpoint.refused += 1;
          return void res.writeHead(500).end('chaos: failing on purpose');
        }
        // Never answered: the dispatcher's attempt timeout ends it.
        if (roll < FLAKY.failRate + FLAKY.hangRate) return void (endpoint.refused += 1);
      }
      answer();
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    urlOf: (name) => `${url}/hooks/${name}`,
    add(name, mode, secret) {
      endpoints.set(name, {
        mode,
        secret,
        filledUntil: 0,
        taken: [],
        badSignatures: 0,
        refused: 0,
      });
    },
    fill(name, ms) {
      const endpoint = endpoints.get(name);
      if (endpoint) endpoint.filledUntil = Date.now() + ms;
    },
    logs: () => endpoints,
    inFlight: () => inFlight,
    async close() {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Verifies a delivery and answers it: 204 and recorded once the answer is out, else 400. */
function take(
  endpoint: Endpoint,
  body: Buffer,
  headers: http.IncomingHttpHeaders,
  res: http.ServerResponse,
): void {
  let event;
  try {
    event = verifyWebhook(endpoint.secret, body, headers);
  } catch {
    endpoint.badSignatures += 1;
    res.writeHead(400).end('bad signature');
    return;
  }
  const object = event.data.object as { id?: unknown };
  const taken: Taken = {
    eventId: event.id,
    type: event.type,
    requestId: event.data.request_id,
    sequence: event.data.sequence,
    objectId: typeof object.id === 'string' ? object.id : undefined,
  };
  // Counted when the answer was handed to the socket: a sender that gave up first never saw it,
  // and sends again, which is a retry, not a duplicate.
  res.writeHead(204).end(() => {
    if (!res.destroyed) endpoint.taken.push(taken);
  });
}
