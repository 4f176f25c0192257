import { ACCESS_STREAM, AUDIT_STREAM, EVENTS_STREAM, SEQUENCES_BUCKET } from '@handoff/contracts';
import { natsInboxPrefix } from '@handoff/config/nats-users';
import type { Logger } from '@handoff/observability';
import {
  StorageType,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';
import { bucketStream, ensureStream } from './jetstream.ts';

export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

export interface ConnectOptions {
  url: string;
  /** Shown in `nats server report connections`; the service name and instance. */
  name: string;
  logger: Logger;
  /** The NATS user (the service's name) and its password; anonymous when unset. */
  user?: string | undefined;
  password?: string | undefined;
  /** PEM files: the CA of the servers (turns TLS on), and a client certificate and key. */
  tlsCa?: string | undefined;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
}

/**
 * Connection options from the NATS_* variables. A user gets its own inbox prefix: the server
 * lets each user subscribe only to its own replies (packages/config/src/nats-users.ts).
 */
export function natsConnectionOptions(options: Omit<ConnectOptions, 'logger'>): ConnectionOptions {
  if ((options.user === undefined) !== (options.password === undefined)) {
    throw new Error('NATS_USER and NATS_PASSWORD must be set together');
  }
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    throw new Error('NATS_TLS_CERT and NATS_TLS_KEY must be set together');
  }
  const tls =
    options.tlsCa === undefined && options.tlsCert === undefined
      ? {}
      : {
          tls: {
            ...(options.tlsCa === undefined ? {} : { caFile: options.tlsCa }),
            ...(options.tlsCert === undefined ? {} : { certFile: options.tlsCert }),
            ...(options.tlsKey === undefined ? {} : { keyFile: options.tlsKey }),
          },
        };
  const auth =
    options.user === undefined || options.password === undefined
      ? {}
      : {
          user: options.user,
          pass: options.password,
          inboxPrefix: natsInboxPrefix(options.user),
        };
  return {
    servers: options.url.split(',').map((server) => server.trim()),
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // nats.js otherwise builds an Error (a stack trace) up front for every request and publish,
    // to name the caller should it fail: 5 % of a busy service's CPU in a profile of the create
    // path. Our BusError and the callers' own context say where a failed call came from.
    noAsyncTraces: true,
    ...auth,
    ...tls,
  };
}

/** The ConnectOptions of a service from its environment (the NATS_* variables). */
export function busOptionsFromEnv(env: {
  NATS_URL: string;
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TLS_CA?: string | undefined;
  NATS_TLS_CERT?: string | undefined;
  NATS_TLS_KEY?: string | undefined;
}): Omit<ConnectOptions, 'name' | 'logger'> {
  return {
    url: env.NATS_URL,
    user: env.NATS_USER,
    password: env.NATS_PASSWORD,
    tlsCa: env.NATS_TLS_CA,
    tlsCert: env.NATS_TLS_CERT,
    tlsKey: env.NATS_TLS_KEY,
  };
}

/**
 * Calls `forget` each time the connection drops or comes back: core NATS messages sent meanwhile
 * (the broadcasts and events a cache is kept by) are lost to this process, so what was kept by
 * them must be read again. Returns a stop that ends the watch.
 */
export function onBusInterrupted(nc: NatsConnection, forget: () => void): () => void {
  let stopped = false;
  void (async () => {
    for await (const status of nc.status()) {
      if (stopped) break;
      if (status.type === 'disconnect' || status.type === 'reconnect') forget();
    }
  })();
  return () => {
    stopped = true;
  };
}

export async function connectBus(options: ConnectOptions): Promise<Bus> {
  const nc = await connect(natsConnectionOptions(options));
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect' || status.type === 'error') {
        options.logger.warn({ nats: status.type }, 'nats connection status changed');
      }
    }
  })();
  const jsm = await jetstreamManager(nc);
  return { nc, js: jetstream(nc), jsm };
}

const nanos = (ms: number) => ms * 1_000_000;

/**
 * Creates or updates the streams every service relies on. Safe to run from every replica at once:
 * an existing stream whose settings already match is left alone.
 */
export async function ensureStreams(
  jsm: JetStreamManager,
  replicas = 1,
  /** Whether this user numbers events, and so may (and must) set up the sequences bucket. */
  { sequences = true }: { sequences?: boolean } = {},
): Promise<void> {
  for (const stream of [EVENTS_STREAM, ACCESS_STREAM, AUDIT_STREAM]) {
    await ensureStream(jsm, {
      name: stream.name,
      subjects: [...stream.subjects],
      max_age: nanos(stream.maxAgeMs),
      duplicate_window: nanos(stream.duplicateWindowMs),
      // NATS_STREAM_REPLICAS: raised on an existing stream too (the server copies it over).
      num_replicas: replicas,
    });
  }
  if (sequences) {
    // The per-request event sequences, a KV bucket of history 1. File storage and no age limit:
    // a number handed out must never be handed out again.
    await ensureStream(
      jsm,
      bucketStream(SEQUENCES_BUCKET.name, {
        max_msgs_per_subject: 1,
        storage: StorageType.File,
        num_replicas: replicas,
      }),
    );
  }
}
