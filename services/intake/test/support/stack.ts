// Helpers shared by intake's tests (real NATS and a real database).
import { afterAll, beforeAll } from '@jest/globals';
import { call } from '@handoff/bus';
import {
  accessSubjects,
  EVENTS_STREAM,
  type AccessInvalidation,
  EventEnvelope,
  newId,
  providerOps,
  requestOps,
  type EventType,
  type Operation,
  type RequestPatch,
} from '@handoff/contracts';
import { sha256Hex } from '@handoff/runtime';
import { natsOptions, uniqueDatabase, serviceEnv } from '@handoff/testkit';
import { jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';
import { bootstrap } from '../../src/bootstrap.ts';
import { ENGAGEMENT_CONSUMER } from '../../src/handlers/engagement.consumer.ts';

export type Service = Awaited<ReturnType<typeof bootstrap>>;
/** The call id every bus call of these tests carries, as the gateway's calls carry theirs. */
export const CALL_ID = 'rid-providers';
export const opts = { timeoutMs: 5_000, callId: CALL_ID };
export const staff = { actor: 'ops@handoff.test' };
export const token = sha256Hex('hrt_token');

/** An intake service on its own database (or on `database`, to start one again on the same). */
export function startIntake(label: string, database = uniqueDatabase(label)): Promise<Service> {
  return bootstrap({ env: serviceEnv('intake', database) });
}

export function createProvider(
  nc: NatsConnection,
  input: { name?: string; email?: string; categories: string[]; capacity?: number },
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
    livemode: true,
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

/** Every message of `stream` under `subject`, from its start (an ordered consumer's fetch). */
export async function readStream(nc: NatsConnection, stream: string, subject: string) {
  const consumer = await jetstream(nc).consumers.get(stream, { filter_subjects: [subject] });
  const messages: JsMsg[] = [];
  const batch = await consumer.fetch({ max_messages: 10_000, expires: 1_000 });
  for await (const msg of batch) messages.push(msg);
  return messages;
}

/** The events of one request under `subject` (all its `request.*` ones), in stream order. */
export async function requestEvents(
  nc: NatsConnection,
  requestId: string,
  subject = 'handoff.events.request.>',
) {
  return (await readStream(nc, EVENTS_STREAM.name, subject))
    .map((msg) => EventEnvelope.parse(msg.json()))
    .filter((event) => event.data.request_id === requestId);
}

/**
 * Intake on its own database and a client connection, started before the file's tests and
 * stopped after them; `invalidations` holds every key-cache invalidation it broadcasts.
 */
export class IntakeUnderTest {
  readonly invalidations: AccessInvalidation[] = [];
  #running: { service: Service; nc: NatsConnection } | undefined;

  get service(): Service {
    return this.#parts.service;
  }

  get nc(): NatsConnection {
    return this.#parts.nc;
  }

  get #parts() {
    if (!this.#running) throw new Error('intake starts in beforeAll');
    return this.#running;
  }

  /** A bus call as a trusted caller (the gateway, a service) makes it. */
  call<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>, input: z.input<I>) {
    return call(this.nc, op, input, opts);
  }

  async start(label: string): Promise<void> {
    const service = await startIntake(label);
    const nc = await connect({ ...natsOptions() });
    const sub = nc.subscribe(accessSubjects.invalidate);
    void (async () => {
      for await (const msg of sub) this.invalidations.push(msg.json());
    })();
    this.#running = { service, nc };
  }

  async stop(): Promise<void> {
    await this.#running?.nc.close();
    await this.#running?.service.stop();
    this.#running = undefined;
  }

  /** Stops the service alone; the connection stays. */
  stopService(): Promise<void> {
    return this.service.stop();
  }

  /** Starts the service again on the database it had. */
  async startService(): Promise<void> {
    const { nc, service } = this.#parts;
    this.#running = { nc, service: await startIntake('intake', service.env.MONGO_DB) };
  }
}

export function useIntake(label: string): IntakeUnderTest {
  const intake = new IntakeUnderTest();
  beforeAll(() => intake.start(label));
  afterAll(() => intake.stop());
  return intake;
}
