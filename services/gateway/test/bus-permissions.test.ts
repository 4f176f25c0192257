import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureStreams } from '@handoff/bus';
import { natsInboxPrefix, type NatsUser } from '@handoff/config/nats-users';
import { ACCESS_STREAM, AUDIT_STREAM, EVENTS_STREAM } from '@handoff/contracts';
import { natsOptions, testServers } from '@handoff/testkit';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';

// The server enforces the table in packages/config/src/nats-users.ts: this worker's
// nats-server runs the generated configuration, the same permissions as production.

const open: NatsConnection[] = [];

async function as(user: NatsUser): Promise<NatsConnection> {
  const nc = await connect(natsOptions(user));
  open.push(nc);
  return nc;
}

afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close()));
});

/** A JetStream publish the server refuses: the publish fails with the violation. */
async function refusedPublish(nc: NatsConnection, subject: string): Promise<string> {
  return jetstream(nc)
    .publish(subject, '{}', { timeout: 2_000 })
    .then(
      () => `${subject} was stored`,
      (caught: unknown) => String(caught),
    );
}

/** A request the server refuses with a permissions violation (not a timeout, not no responders). */
async function refusedRequest(nc: NatsConnection, subject: string): Promise<string> {
  const error = await nc.request(subject, '{}', { timeout: 2_000 }).then(
    () => new Error(`${subject} was answered`),
    (caught: unknown) => caught,
  );
  return String(error instanceof Error ? `${error.message} ${String(error.cause)}` : error);
}

/** A subscription the server refuses: the subscription's iterator ends with the violation. */
async function refusedSubscription(nc: NatsConnection, subject: string): Promise<string> {
  const sub = nc.subscribe(subject);
  try {
    for await (const _msg of sub) return 'a message arrived';
    return 'ended without an error';
  } catch (error) {
    return String(error);
  }
}

describe('NATS credentials', () => {
  it('refuses a connection without credentials', async () => {
    await expect(connect({ servers: testServers().natsUrl, reconnect: false })).rejects.toThrow(
      /Authorization Violation/i,
    );
  });

  it('refuses a wrong password', async () => {
    await expect(
      connect({
        servers: testServers().natsUrl,
        user: 'gateway',
        pass: 'not-the-password',
        reconnect: false,
      }),
    ).rejects.toThrow(/Authorization Violation/i);
  });
});

/** What the server refuses each user, by kind of attempt, and the violation it answers with. */
const REFUSALS: {
  title: string;
  verb: string;
  attempts: [NatsUser, string][];
  refused: (nc: NatsConnection, subject: string) => Promise<string>;
  violation: RegExp;
}[] = [
  {
    title: 'publish permissions: each service publishes only its own events',
    verb: 'publish',
    attempts: [
      ['gateway', 'handoff.events.request.created'],
      ['gateway', 'handoff.access.key.revoked'],
      ['gateway', 'handoff.audit.payments.decided'],
      ['conversation', 'handoff.events.request.updated'],
      ['payments', 'handoff.events.milestone.approved'],
      ['milestones', 'handoff.events.payment.completed'],
      ['intake', 'handoff.events.job.completed'],
      ['webhook-dispatcher', 'handoff.events.message.created'],
      ['staff', 'handoff.events.request.created'],
      ['conversation', 'handoff.gateway.access.invalidate'],
    ],
    refused: refusedPublish,
    violation: /Permissions Violation for Publish/i,
  },
  {
    title: 'request permissions: a service calls only what it needs',
    verb: 'call',
    attempts: [
      ['webhook-dispatcher', 'handoff.payments.payment_requests.decide'],
      ['payments', 'handoff.intake.access.approve'],
      ['conversation', 'handoff.milestones.proposals.accept'],
      ['milestones', 'handoff.webhook-dispatcher.endpoints.create'],
      ['intake', 'handoff.payments.payments.confirm'],
      ['staff', 'handoff.intake.access.verify_key'],
      ['gateway', '$JS.API.STREAM.DELETE.HANDOFF_EVENTS'],
      ['intake', '$JS.API.STREAM.PURGE.HANDOFF_EVENTS'],
      ['staff', '$JS.API.STREAM.DELETE.HANDOFF_AUDIT'],
      // A service's consumer: staff may read the stream, never take its events or redefine it.
      ['staff', '$JS.API.CONSUMER.MSG.NEXT.HANDOFF_EVENTS.webhook-dispatcher'],
      ['staff', '$JS.API.CONSUMER.DURABLE.CREATE.HANDOFF_EVENTS.webhook-dispatcher'],
      ['staff', '$JS.API.CONSUMER.CREATE.HANDOFF_EVENTS.payments-request-closure'],
      ['staff', '$JS.API.CONSUMER.CREATE.HANDOFF_EVENTS.milestones-request-closure.handoff.>'],
      ['staff', '$JS.ACK.HANDOFF_EVENTS.webhook-dispatcher.1.1.1.1.1.1'],
    ],
    refused: refusedRequest,
    violation: /Permissions Violation for Publish/i,
  },
  {
    title: 'subscribe permissions: a service answers only its own operations',
    verb: 'subscribe to',
    attempts: [
      ['intake', 'handoff.payments.payment_requests.decide'],
      ['conversation', 'handoff.intake.>'],
      ['gateway', 'handoff.audit.>'],
      ['webhook-dispatcher', 'handoff.gateway.access.invalidate'],
      // Replies of other users: keys verified, payments decided.
      ['payments', `${natsInboxPrefix('gateway')}.>`],
      ['staff', '_INBOX.>'],
    ],
    refused: refusedSubscription,
    violation: /Permissions Violation for Subscription/i,
  },
];

describe.each(REFUSALS)('$title', ({ verb, attempts, refused, violation }) => {
  it.each(attempts)(`%s may not ${verb} %s`, async (user, subject) => {
    expect(await refused(await as(user), subject)).toMatch(violation);
  });
});

/** One message per stream that the staff user reads back. */
const STAFF_CHECKS: [string, string][] = [
  [EVENTS_STREAM.name, 'handoff.events.permission-check'],
  [ACCESS_STREAM.name, 'handoff.access.permission-check'],
  [AUDIT_STREAM.name, 'handoff.audit.permission-check.read'],
];

describe('the staff tools user', () => {
  let writer: NatsConnection;

  beforeAll(async () => {
    // The test user plays the services: the streams exist, and it writes what staff then reads.
    writer = await connect(natsOptions());
    open.push(writer);
    await ensureStreams(await jetstreamManager(writer));
  });

  it.each(STAFF_CHECKS)(
    'creates its own durable consumer on %s, reads and acks',
    async (stream, subject) => {
      const stored = await jetstream(writer).publish(subject, '{"check":true}');
      const staff = await as('staff');
      const jsm = await jetstreamManager(staff);
      const durable = `staff-check-${stream.toLowerCase()}`;
      await jsm.consumers.add(stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        filter_subject: subject,
        opt_start_seq: stored.seq,
        deliver_policy: DeliverPolicy.StartSequence,
      });
      const consumer = await jetstream(staff).consumers.get(stream, durable);
      const message = await consumer.next({ expires: 5_000 });
      expect(message?.seq).toBe(stored.seq);
      await message?.ackAck();
      // Reading is all: it cannot delete what others rely on.
      expect(await refusedRequest(staff, `$JS.API.STREAM.PURGE.${stream}`)).toMatch(
        /Permissions Violation for Publish/i,
      );
    },
  );
});
