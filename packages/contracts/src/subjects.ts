import type { BackendService } from './services.ts';

/** NATS request-reply subjects: `handoff.<service>.<operation>`, served in queue groups. */
export const subjects = {
  group: (service: BackendService) => `handoff.${service}`,
  operation: (service: BackendService, operation: string) => `handoff.${service}.${operation}`,
  health: (service: BackendService) => `handoff.${service}.health`,
  event: (type: string) => `handoff.events.${type}`,
} as const;

/**
 * A broadcast of one service's replicas to each other (core NATS, no queue group, so that every
 * replica hears it): `handoff.broadcast.<service>.<what>`.
 */
export const broadcastSubject = <const S extends BackendService, const W extends string>(
  service: S,
  what: W,
) => `handoff.broadcast.${service}.${what}` as const;

/** A stream of every subject under `handoff.<prefix>.`. */
export const streamUnder = <const N extends string, const P extends string>(name: N, prefix: P) =>
  ({ name, subjects: [`handoff.${prefix}.>`] }) as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A stream under `handoff.<prefix>.`, kept `days` days. Publishes with the same `Nats-Msg-Id`
 * inside its two-minute `duplicateWindowMs` are dropped as duplicates.
 */
const keptStream = <const N extends string, const P extends string>(
  name: N,
  prefix: P,
  days: number,
) =>
  ({
    ...streamUnder(name, prefix),
    maxAgeMs: days * DAY_MS,
    duplicateWindowMs: 2 * 60 * 1000,
  }) as const;

/**
 * The domain event stream that staff tools and the webhook dispatcher consume. Events are kept
 * for the 30-day recovery feed.
 */
export const EVENTS_STREAM = keptStream('HANDOFF_EVENTS', 'events', 30);

/**
 * Headers carried on every bus message a call causes. `callId` carries the call id: the
 * `Request-Id` of the HTTP call that caused the message (the header keeps the HTTP name).
 */
export const BUS_HEADERS = {
  callId: 'Request-Id',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  /** A byte operation's input (JSON), whose body is bytes (`ByteOperation`, file-ops.ts). */
  input: 'Handoff-Input',
  /**
   * The operation a call carries out for its caller: the gateway's hash of the HTTP call's scope
   * and `Idempotency-Key`, the same on every retry of that call. A service records it on what it
   * moves, so that a retry after a lost answer is answered as done (runtime `moveDocument`).
   */
  operation: 'Handoff-Operation',
} as const;

/** Access events for staff tools: applications, keys, integrations. */
export const ACCESS_STREAM = keptStream('HANDOFF_ACCESS', 'access', 365);

export const accessSubjects = {
  event: (type: string) => `handoff.${type}`,
  /** Core NATS broadcast (no queue group): every gateway replica drops its cached keys. */
  invalidate: 'handoff.gateway.access.invalidate',
} as const;

/** The webhook dispatcher's broadcasts between its own replicas. */
export const dispatcherSubjects = {
  /** Every replica drops what it holds of a changed endpoint. */
  endpointChanged: broadcastSubject('webhook-dispatcher', 'endpoint-changed'),
} as const;

/** Shared rate-limit counters (JetStream counters, NATS 2.12+). */
export const RATE_LIMIT_STREAM = streamUnder('HANDOFF_RATE_LIMITS', 'ratelimit');

/**
 * Staff actions for staff tools and the audit log: `handoff.audit.<service>.<action>`. Actions
 * that change a domain object are announced by their domain event (which carries the audit entry
 * locally); this stream holds the ones without such an event, such as a rejected payment request.
 */
export const AUDIT_STREAM = keptStream('HANDOFF_AUDIT', 'audit', 365);

export const auditSubject = (service: string, action: string) =>
  `handoff.audit.${service}.${action}`;

/**
 * The agents' read model (services/gateway/src/views): a JetStream KV bucket of one view per live
 * request, written only by the gateway, and the durable consumer of events its replicas share to
 * keep the views current.
 */
export const REQUEST_VIEWS = {
  bucket: 'HANDOFF_REQUEST_VIEWS',
  consumer: 'gateway-request-views',
} as const;

/**
 * The per-request event sequence (JetStream KV, key = request id): every service allocates from
 * it at publish time with a revision compare-and-set, so `sequence` runs 1, 2, 3 … per request
 * across services without asking the service that owns requests.
 */
export const SEQUENCES_BUCKET = {
  name: 'HANDOFF_SEQUENCES',
  /**
   * How many of a request's latest event ids keep their number: a publish retried (after a
   * crash, by the sweep) within that many later events of the same request gets the same one.
   */
  recentEvents: 64,
} as const;
