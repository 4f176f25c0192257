import {
  ACCESS_STREAM,
  AUDIT_STREAM,
  deliverableOps,
  dispatcherSubjects,
  disputeOps,
  EVENTS_STREAM,
  intakeClockOps,
  jobOps,
  messageOps,
  milestoneOps,
  milestonesClockOps,
  notificationSubjects,
  paymentOps,
  paymentRecordOps,
  paymentsClockOps,
  proposalOps,
  providerOps,
  RATE_LIMIT_STREAM,
  REMINDERS_STREAM,
  REQUEST_VIEWS,
  SEQUENCES_BUCKET,
  requestOps,
  ROUTING_STREAM,
  routingOps,
  testDataOps,
} from '@handoff/contracts';

/**
 * Who may do what on the bus. One row per NATS user; the server configuration (tests, `npm start`,
 * the NATS chart's accounts values) is generated from this table by `natsPermissions`, so adding
 * a stream, a bucket or an operation a service calls is a one-line change here.
 *
 * Every user lives in the account `HANDOFF`, which holds the streams and buckets.
 */
export interface NatsGrant {
  /** Core or JetStream subjects it may publish to (its own events, its audit entries). */
  publishes: readonly string[];
  /** Request-reply subjects it answers (NATS micro service `handoff-<service>` on them). */
  serves: readonly string[];
  /** Request-reply subjects of other services it calls. */
  calls: readonly string[];
  /** Core NATS subjects it subscribes to without answering (broadcasts). */
  listens: readonly string[];
  /** Streams it creates or brings to its settings at start (info, create, update). */
  manages: readonly string[];
  /** Streams it reads through the named durable consumers (info, create, next, ack). */
  consumes: readonly { stream: string; consumer: string }[];
  /**
   * Streams it reads through durable consumers it creates, of any name but those of the services'
   * consumers (`consumes`), which it may neither pull from, ack on, nor create, update or delete.
   */
  reads: readonly string[];
  /** Key-value buckets it creates, reads and writes. */
  buckets: readonly string[];
  /** Key-value buckets it only reads, key by key, from the stream's leader (never writes). */
  looksUp?: readonly string[];
}

export const NATS_ACCOUNT = 'HANDOFF';

const none = [] as const;

const backendStreams = [EVENTS_STREAM.name, ACCESS_STREAM.name, AUDIT_STREAM.name] as const;

const events = (...types: string[]) => types.map((type) => `handoff.events.${type}`);

/** Every service's own audit subject (`handoff.audit.<service>.<action>`) and health. */
const backend = (service: string) => ({
  serves: [`handoff.${service}.>`],
  manages: backendStreams,
  listens: none,
  reads: none,
  buckets: none,
  publishes: [`handoff.audit.${service}.>`],
});

export const NATS_GRANTS = {
  gateway: {
    // Operations only: never a domain event, an access event or an audit entry.
    publishes: [...RATE_LIMIT_STREAM.subjects],
    serves: none,
    calls: [
      'handoff.intake.>',
      'handoff.conversation.>',
      'handoff.payments.>',
      'handoff.milestones.>',
      'handoff.webhook-dispatcher.>',
      'handoff.notifications.>',
      // Test clocks (and the health of test mode).
      'handoff.testmode.>',
    ],
    // Key-cache invalidations from intake; the SDK's long-poll route reads events as they are
    // published (a core subscription: reading only, publishing events stays refused).
    listens: ['handoff.gateway.access.invalidate', 'handoff.events.>'],
    manages: [RATE_LIMIT_STREAM.name],
    // The agents' read model: every event but a request's first goes into its request's view.
    consumes: [{ stream: EVENTS_STREAM.name, consumer: REQUEST_VIEWS.consumer }],
    reads: none,
    // HANDOFF_A2A_TOKENS: the request tokens the A2A binding holds for integrations (encrypted).
    buckets: ['HANDOFF_IDEMPOTENCY', 'HANDOFF_A2A_TOKENS', REQUEST_VIEWS.bucket],
    // A request's last event number: whether its view holds everything announced.
    looksUp: [SEQUENCES_BUCKET.name],
  },
  intake: {
    ...backend('intake'),
    publishes: [
      ...events('request.*'),
      ...ACCESS_STREAM.subjects,
      'handoff.audit.intake.>',
      'handoff.gateway.access.invalidate',
      // The end of each offer's response window, into its own work queue.
      ...ROUTING_STREAM.subjects,
    ],
    // Its replicas' caches drop what another replica's change broadcasts (providers) or
    // announces (requests, read only: publishing there is its own grant above).
    listens: ['handoff.gateway.access.invalidate', ...events('request.updated')],
    // A sign-in link goes to the notifications service to be mailed (its token is stored nowhere).
    calls: [
      'handoff.notifications.mail.sign_in',
      // Staff's deletion of an integration's test data: each service deletes what it holds.
      ...[
        testDataOps.conversation,
        testDataOps.milestones,
        testDataOps.payments,
        testDataOps.dispatcher,
      ].map((op) => op.subject),
    ],
    manages: [...backendStreams, ROUTING_STREAM.name],
    consumes: [
      { stream: EVENTS_STREAM.name, consumer: 'intake-engagement' },
      // Automatic routing: every request event settles its routing; offers lapse on time.
      { stream: EVENTS_STREAM.name, consumer: 'intake-routing' },
      { stream: ROUTING_STREAM.name, consumer: 'intake-routing-lapses' },
    ],
    buckets: ['HANDOFF_SEQUENCES'],
  },
  conversation: {
    ...backend('conversation'),
    publishes: [...events('message.*'), 'handoff.audit.conversation.>'],
    calls: none,
    consumes: none,
    buckets: ['HANDOFF_SEQUENCES'],
  },
  payments: {
    ...backend('payments'),
    publishes: [...events('payment.*'), 'handoff.audit.payments.>'],
    // A staff approval moves money only while the request is open.
    calls: ['handoff.intake.requests.status'],
    consumes: [{ stream: EVENTS_STREAM.name, consumer: 'payments-request-closure' }],
    buckets: ['HANDOFF_SEQUENCES'],
  },
  milestones: {
    ...backend('milestones'),
    publishes: [
      ...events('proposal.*', 'milestone.*', 'deliverable.*', 'dispute.*', 'job.*'),
      'handoff.audit.milestones.>',
    ],
    calls: none,
    consumes: [{ stream: EVENTS_STREAM.name, consumer: 'milestones-request-closure' }],
    buckets: ['HANDOFF_SEQUENCES'],
  },
  'webhook-dispatcher': {
    ...backend('webhook-dispatcher'),
    // Its own work queue of deliveries, and its replicas' endpoint-cache broadcasts.
    publishes: [
      'handoff.deliveries.>',
      'handoff.audit.webhook-dispatcher.>',
      dispatcherSubjects.endpointChanged,
    ],
    listens: [dispatcherSubjects.endpointChanged],
    calls: ['handoff.intake.requests.owner'],
    manages: [...backendStreams, 'HANDOFF_DELIVERIES'],
    consumes: [
      { stream: EVENTS_STREAM.name, consumer: 'webhook-dispatcher' },
      { stream: 'HANDOFF_DELIVERIES', consumer: 'webhook-deliveries' },
    ],
  },
  notifications: {
    ...backend('notifications'),
    // Its own work queue of reminders; no domain event, only its audit subject.
    publishes: [
      ...REMINDERS_STREAM.subjects,
      'handoff.audit.notifications.>',
      notificationSubjects.changed,
    ],
    // Its caches of providers drop what a provider change (intake's broadcast) or a change of
    // their settings or address (its own replicas') names.
    // A request it read is dropped at its `request.updated` (read only: it never publishes there).
    listens: [
      'handoff.gateway.access.invalidate',
      notificationSubjects.changed,
      ...events('request.updated'),
    ],
    // Who to write to: a request's routing and engaged provider, a provider's address.
    calls: [
      'handoff.intake.requests.get_as_staff',
      'handoff.intake.providers.get',
      // A request routed to providers, with its offers: the mail says by when to answer.
      'handoff.intake.routing.request',
    ],
    manages: [...backendStreams, REMINDERS_STREAM.name],
    consumes: [
      { stream: EVENTS_STREAM.name, consumer: 'notifications' },
      { stream: ACCESS_STREAM.name, consumer: 'notifications-access' },
      { stream: REMINDERS_STREAM.name, consumer: 'notifications-reminders' },
    ],
  },
  testmode: {
    ...backend('testmode'),
    // No domain event of its own: the simulated provider acts through the services' operations,
    // each of which publishes its own event.
    publishes: ['handoff.audit.testmode.>'],
    calls: [
      // What the gateway's provider routes call, as the simulated provider.
      providerOps.request,
      routingOps.accept,
      routingOps.decline,
      messageOps.create,
      messageOps.listForProvider,
      proposalOps.create,
      proposalOps.list,
      jobOps.list,
      jobOps.complete,
      milestoneOps.create,
      milestoneOps.list,
      milestoneOps.get,
      milestoneOps.submit,
      deliverableOps.create,
      deliverableOps.list,
      disputeOps.get,
      disputeOps.comment,
      // Payment requests and payments, as staff (`system:test-mode`) on test requests only.
      paymentOps.create,
      paymentOps.list,
      paymentOps.decide,
      paymentRecordOps.list,
      paymentRecordOps.confirm,
      paymentRecordOps.fail,
      // A test request's scenario, when its own events did not carry it here first.
      requestOps.getAsStaff,
      // Test clocks: a clock's requests, and their deadlines in each service that keeps some.
      ...Object.values(intakeClockOps),
      ...Object.values(milestonesClockOps),
      ...Object.values(paymentsClockOps),
    ].map((op) => op.subject),
    consumes: [{ stream: EVENTS_STREAM.name, consumer: 'testmode' }],
  },
  /** Staff tools: read-only consumers of the three logs; publish nothing, call nothing. */
  staff: {
    publishes: none,
    serves: none,
    calls: none,
    listens: none,
    manages: none,
    consumes: none,
    reads: [EVENTS_STREAM.name, ACCESS_STREAM.name, AUDIT_STREAM.name],
    buckets: none,
  },
} as const satisfies Record<string, NatsGrant>;

export type NatsUser = keyof typeof NATS_GRANTS;
export const NATS_USERS = Object.keys(NATS_GRANTS) as NatsUser[];

export interface NatsPermissions {
  publish: { allow: string[]; deny?: string[] };
  subscribe: { allow: string[]; deny?: string[] };
  /** Lets a responder answer the requests it received, and nothing else on `_INBOX`. */
  allow_responses?: boolean;
}

/**
 * The inbox prefix of a user: replies (requests, JetStream API answers, publish acks) come back
 * only under it, so no user can read another's replies (keys verified, payments decided).
 */
export const natsInboxPrefix = (user: string) => `_INBOX_${user.replace(/[^A-Za-z0-9]/g, '_')}`;

/** The durable consumers services own on `stream` (their `consumes` rows). */
function serviceConsumers(stream: string): string[] {
  const grants: NatsGrant[] = Object.values(NATS_GRANTS);
  return grants.flatMap((grant) =>
    grant.consumes.filter((row) => row.stream === stream).map((row) => row.consumer),
  );
}

/** nats-server permissions of one user, expanded from its grant. */
export function natsPermissions(user: NatsUser): NatsPermissions {
  const grant: NatsGrant = NATS_GRANTS[user];
  const publish = new Set<string>();
  const subscribe = new Set<string>([`${natsInboxPrefix(user)}.>`]);
  const api = (suffix: string) => publish.add(`$JS.API.${suffix}`);
  for (const subject of grant.publishes) publish.add(subject);
  for (const subject of grant.calls) publish.add(subject);
  for (const subject of grant.listens) subscribe.add(subject);
  if (grant.serves.length > 0) {
    const service = `handoff-${user}`;
    for (const subject of grant.serves) subscribe.add(subject);
    // NATS micro discovery: $SRV.<verb>, $SRV.<verb>.<name>, $SRV.<verb>.<name>.<id>.
    for (const pattern of ['$SRV.*', `$SRV.*.${service}`, `$SRV.*.${service}.*`])
      subscribe.add(pattern);
  }
  const looksUp = grant.looksUp ?? [];
  const touchesJetStream =
    grant.manages.length +
      grant.consumes.length +
      grant.reads.length +
      grant.buckets.length +
      looksUp.length >
    0;
  // Account info: every JetStream client asks it once, to learn that JetStream is there.
  if (touchesJetStream) api('INFO');
  for (const stream of grant.manages) {
    for (const verb of ['INFO', 'CREATE', 'UPDATE']) api(`STREAM.${verb}.${stream}`);
    // Counters and last values are read with direct gets.
    api(`DIRECT.GET.${stream}`);
    api(`DIRECT.GET.${stream}.>`);
  }
  for (const { stream, consumer } of grant.consumes) {
    api(`STREAM.INFO.${stream}`);
    for (const verb of ['INFO', 'CREATE', 'DURABLE.CREATE']) {
      api(`CONSUMER.${verb}.${stream}.${consumer}`);
      api(`CONSUMER.${verb}.${stream}.${consumer}.>`);
    }
    api(`CONSUMER.MSG.NEXT.${stream}.${consumer}`);
    publish.add(`$JS.ACK.${stream}.${consumer}.>`);
  }
  const deny = new Set<string>();
  for (const stream of grant.reads) {
    // Any consumer name of its own, but never a service's: pulling from or redefining one would
    // take events from that service (the dispatcher's deliveries, a closure's refunds).
    for (const taken of serviceConsumers(stream)) {
      for (const verb of ['CREATE', 'DURABLE.CREATE', 'UPDATE', 'DELETE']) {
        deny.add(`$JS.API.CONSUMER.${verb}.${stream}.${taken}`);
        deny.add(`$JS.API.CONSUMER.${verb}.${stream}.${taken}.>`);
      }
      deny.add(`$JS.API.CONSUMER.MSG.NEXT.${stream}.${taken}`);
      deny.add(`$JS.ACK.${stream}.${taken}.>`);
    }
    api(`STREAM.INFO.${stream}`);
    api(`STREAM.MSG.GET.${stream}`);
    api(`DIRECT.GET.${stream}`);
    api(`DIRECT.GET.${stream}.>`);
    api(`CONSUMER.INFO.${stream}.>`);
    api(`CONSUMER.CREATE.${stream}.>`);
    api(`CONSUMER.DURABLE.CREATE.${stream}.>`);
    api(`CONSUMER.MSG.NEXT.${stream}.>`);
    api(`CONSUMER.NAMES.${stream}`);
    api(`CONSUMER.LIST.${stream}`);
    publish.add(`$JS.ACK.${stream}.>`);
  }
  for (const bucket of grant.buckets) {
    const stream = `KV_${bucket}`;
    publish.add(`$KV.${bucket}.>`);
    for (const verb of ['INFO', 'CREATE', 'UPDATE', 'MSG.GET']) api(`STREAM.${verb}.${stream}`);
    api(`DIRECT.GET.${stream}`);
    api(`DIRECT.GET.${stream}.>`);
    // Watches and key listings run on ordered (ephemeral) consumers of the bucket's stream.
    api(`CONSUMER.CREATE.${stream}.>`);
    api(`CONSUMER.MSG.NEXT.${stream}.>`);
    api(`CONSUMER.DELETE.${stream}.>`);
  }
  for (const bucket of looksUp) {
    // Opening the bucket reads its stream's settings; a get goes to the leader.
    api(`STREAM.INFO.KV_${bucket}`);
    api(`STREAM.MSG.GET.KV_${bucket}`);
  }
  const permissions: NatsPermissions = {
    publish: { allow: [...publish].sort(), ...(deny.size > 0 ? { deny: [...deny].sort() } : {}) },
    subscribe: { allow: [...subscribe].sort() },
  };
  if (grant.serves.length > 0) permissions.allow_responses = true;
  return permissions;
}
