import { ACCESS_STREAM, AUDIT_STREAM, EVENTS_STREAM, SEQUENCES_BUCKET } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import {
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';

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
}

export async function connectBus(options: ConnectOptions): Promise<Bus> {
  const nc = await connect({
    servers: options.url.split(',').map((server) => server.trim()),
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
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

interface StreamSettings {
  name: string;
  subjects: readonly string[];
  maxAgeMs: number;
  duplicateWindowMs: number;
}

/**
 * Creates or updates the streams every service relies on. Safe to run from every replica at once:
 * an existing stream whose settings already match is left alone.
 */
export async function ensureStreams(jsm: JetStreamManager): Promise<void> {
  for (const stream of [EVENTS_STREAM, ACCESS_STREAM, AUDIT_STREAM])
    await ensureStream(jsm, stream);
  await ensureSequencesBucket(jsm);
}

/**
 * The KV bucket of per-request event sequences, with the settings a KV client gives a bucket of
 * history 1. File storage and no age limit: a number handed out must never be handed out again.
 */
async function ensureSequencesBucket(jsm: JetStreamManager): Promise<void> {
  const name = `KV_${SEQUENCES_BUCKET.name}`;
  try {
    await jsm.streams.info(name);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    try {
      await jsm.streams.add({
        name,
        subjects: [`$KV.${SEQUENCES_BUCKET.name}.>`],
        max_msgs_per_subject: 1,
        allow_rollup_hdrs: true,
        allow_direct: true,
        deny_delete: true,
        discard: DiscardPolicy.New,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
      });
    } catch (addError) {
      if (!/already in use|exists/i.test(String(addError))) throw addError;
    }
  }
}

async function ensureStream(jsm: JetStreamManager, settings: StreamSettings): Promise<void> {
  const wanted = {
    name: settings.name,
    subjects: [...settings.subjects],
    max_age: nanos(settings.maxAgeMs),
    duplicate_window: nanos(settings.duplicateWindowMs),
  };
  try {
    const info = await jsm.streams.info(wanted.name);
    const { config } = info;
    if (
      config.max_age !== wanted.max_age ||
      config.duplicate_window !== wanted.duplicate_window ||
      config.subjects.join() !== wanted.subjects.join()
    ) {
      await jsm.streams.update(wanted.name, { ...config, ...wanted });
    }
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    try {
      await jsm.streams.add(wanted);
    } catch (addError) {
      // Another replica created it between our info and add.
      if (!/already in use|exists/i.test(String(addError))) throw addError;
    }
  }
}

function isStreamNotFound(error: unknown): boolean {
  return /stream not found/i.test(String(error));
}
