// Helpers shared by the provider and engagement tests (real NATS and a real database).
import { call } from '@handoff/bus';
import {
  EVENTS_STREAM,
  EventEnvelope,
  newId,
  providerOps,
  requestOps,
  sha256Hex,
  type EventType,
  type RequestPatch,
} from '@handoff/contracts';
import { natsEnv, testServers, uniqueDatabase } from '@handoff/testkit';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';
import { bootstrap } from '../src/bootstrap.ts';
import { ENGAGEMENT_CONSUMER } from '../src/engagement/consumer.ts';

export type Service = Awaited<ReturnType<typeof bootstrap>>;
export const opts = { timeoutMs: 5_000 };
export const staff = { actor: 'ops@handoff.test', request_id: 'rid-providers' };
export const token = sha256Hex('hrt_token');

/** An intake service on its own database (or on `database`, to start one again on the same). */
export function startIntake(label: string, database = uniqueDatabase(label)): Promise<Service> {
  const { mongoUrl } = testServers();
  return bootstrap({
    env: {
      ...natsEnv('intake'),
      MONGO_URL: mongoUrl,
      MONGO_DB: database,
      HEALTH_PORT: '0',
      LOG_LEVEL: 'silent',
    },
  });
}

export function createProvider(
  nc: NatsConnection,
  input: { name?: string; email?: string; categories: string[] },
) {
  return call(
    nc,
    providerOps.create,
    {
      actor: staff.actor,
      input: { name: 'Provider', email: 'provider@example.com', ...input },
    },
    opts,
  );
}

export function createRequest(nc: NatsConnection, input: Record<string, unknown> = {}) {
  return call(
    nc,
    requestOps.create,
    { integration_id: 'int_a', token_hash: token, input: { message: 'Need help', ...input } },
    opts,
  );
}

export function updateRequest(nc: NatsConnection, id: string, patch: z.input<typeof RequestPatch>) {
  return call(nc, requestOps.update, { id, patch, ...staff }, opts);
}

/** A marketplace request in `category` that staff approved for publication. */
export async function marketplaceRequest(
  nc: NatsConnection,
  category: string,
  input: Record<string, unknown> = {},
) {
  const created = await createRequest(nc, { marketplace_opt_in: true, category, ...input });
  await call(
    nc,
    requestOps.decideMarketplace,
    { id: created.id, decision: { decision: 'approved' }, ...staff },
    opts,
  );
  return created;
}

/** An engagement event as the milestones service publishes it: envelope, snapshot, sequence. */
export function engagementEvent(
  type: Extract<EventType, 'proposal.accepted' | 'job.completed'>,
  requestId: string,
  providerId: string,
): EventEnvelope {
  return {
    id: newId('evt'),
    type,
    timestamp: new Date().toISOString(),
    data: {
      request_id: requestId,
      sequence: 2,
      object: {
        object: type === 'proposal.accepted' ? 'proposal' : 'job',
        id: newId(type === 'proposal.accepted' ? 'prp' : 'job'),
        request_id: requestId,
        provider_id: providerId,
        status: type === 'proposal.accepted' ? 'accepted' : 'completed',
      },
    },
  };
}

/**
 * Publishes onto HANDOFF_EVENTS with a real JetStream publish, and waits until the intake's
 * durable consumer has acknowledged (or terminated) everything up to it.
 */
export async function publishAndSettle(
  nc: NatsConnection,
  event: EventEnvelope,
  msgId: string = event.id,
): Promise<void> {
  const ack = await jetstream(nc).publish(`handoff.events.${event.type}`, JSON.stringify(event), {
    msgID: msgId,
  });
  await settled(nc, ack.seq);
}

export async function settled(nc: NatsConnection, streamSeq: number): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const info = await jsm.consumers.info(EVENTS_STREAM.name, ENGAGEMENT_CONSUMER);
    if (info.ack_floor.stream_seq >= streamSeq && info.num_ack_pending === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the engagement consumer did not settle up to stream sequence ${streamSeq}`);
}

/** The `request.*` events of one request, in stream order. */
export async function requestEvents(nc: NatsConnection, requestId: string) {
  const jsm = await jetstreamManager(nc);
  const consumer = await jsm.jetstream().consumers.get(EVENTS_STREAM.name, {
    filter_subjects: ['handoff.events.request.>'],
  });
  const found: EventEnvelope[] = [];
  const batch = await consumer.fetch({ max_messages: 1_000, expires: 1_000 });
  for await (const msg of batch) {
    const event = EventEnvelope.parse(msg.json());
    if (event.data.request_id === requestId) found.push(event);
  }
  return found;
}
