// The delivery parts' resources on real servers: a dispatcher whose worker is paused (so nothing
// takes the jobs the tests queue), its store and bus, and loopback receivers.
import { serviceEnv, uniqueDatabase } from '@handoff/testkit';
import { newId } from '@handoff/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bootstrap } from '../../src/bootstrap.ts';
import type { DeliveryResources } from '../../src/delivery/resources.ts';
import { generateWebhookSecret } from '../../src/domain/signer.ts';
import { secretBox } from '../../src/domain/secrets.ts';
import { collectionsOf } from '../../src/store/collections.ts';
import { recorder } from '../../src/store/deliveries.ts';
import { DeliveryJob, deliveryQueue, deliverySubject } from '../../src/store/delivery-queue.ts';
import { endpointDirectory } from '../../src/store/endpoint-directory.ts';
import type { EndpointDoc } from '../../src/store/endpoints.ts';

export interface Receipt {
  id: string;
  body: string;
  headers: IncomingHttpHeaders;
}

export async function deliveryStack(label: string) {
  const key = randomBytes(32).toString('base64');
  const service = await bootstrap({
    env: {
      ...serviceEnv('webhook-dispatcher', uniqueDatabase(label)),
      WEBHOOK_SECRETS_KEY: key,
      WEBHOOK_DELIVERIES_PAUSED: 'true',
      LOG_LEVEL: 'error',
    },
  });
  const secrets = secretBox(key);
  const servers: Server[] = [];
  const resources: DeliveryResources = {
    store: service.store,
    directory: endpointDirectory(service.store, service.bus, service.logger),
    queue: deliveryQueue(service.bus, 1),
    records: recorder(service.store),
    secrets,
    logger: service.logger,
    send: { timeoutMs: 2_000, policy: { allowPrivate: true }, responseBodyLimit: 1_024 },
    schedule: [1, 2],
    disableAfterSeconds: 3_600,
  };
  const c = collectionsOf(service.store);

  return {
    service,
    resources,
    c,
    /** An enabled endpoint at `url`, written as the API writes one; returns it and its secret. */
    async endpoint(url: string, change: Partial<EndpointDoc> = {}) {
      const secret = generateWebhookSecret();
      const now = new Date();
      const doc: EndpointDoc = {
        _id: newId('whe'),
        integration_id: newId('int'),
        url,
        event_types: ['request.created'],
        description: null,
        enabled: true,
        disabled_reason: null,
        secret_enc: secrets.seal(secret),
        previous_secret_enc: null,
        previous_secret_expires_at: null,
        failing_since: null,
        created_at: now,
        updated_at: now,
        ...change,
      };
      await c.endpoints.insertOne(doc);
      return { doc, secret };
    },
    /** A loopback receiver answering each delivery with `status` (and `headers`). */
    async receiver(status: number, headers: Record<string, string> = {}) {
      const receipts: Receipt[] = [];
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          receipts.push({
            id: String(req.headers['webhook-id']),
            body: Buffer.concat(chunks).toString('utf8'),
            headers: req.headers,
          });
          res.writeHead(status, headers).end('answer');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      const { port } = server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}/hook`, receipts };
    },
    async stop() {
      for (const server of servers) server.close();
      await resources.records.close();
      await service.stop();
    },
  };
}

/** A first job of a new event for the endpoint. */
export function jobFor(endpointId: string, change: Partial<DeliveryJob> = {}): DeliveryJob {
  const eventId = newId('evt');
  return {
    delivery_id: `${endpointId}.${eventId}`,
    endpoint_id: endpointId,
    event: { id: eventId, type: 'request.created', body: JSON.stringify({ id: eventId }) },
    attempt: 1,
    not_before: 0,
    made_at: Date.now(),
    ...change,
  };
}

/** Collects the jobs queued for the endpoint, as the queue's stream is sent them, until `stop`. */
export function queuedJobs(nc: NatsConnection, endpointId: string) {
  const jobs: DeliveryJob[] = [];
  const subscription = nc.subscribe(deliverySubject(endpointId), {
    callback: (error, msg) => {
      if (!error) jobs.push(DeliveryJob.parse(msg.json()));
    },
  });
  return {
    jobs,
    /** Stops counting once NATS has surely passed on what was published before. */
    async stop() {
      await nc.flush();
      subscription.unsubscribe();
      return jobs;
    },
  };
}
