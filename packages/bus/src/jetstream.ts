import {
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  type ConsumerConfig,
  type ConsumerInfo,
  type ConsumerUpdateConfig,
  type JetStreamManager,
  type StorageType,
  type StreamConfig,
  type StreamInfo,
  type StreamUpdateConfig,
} from '@nats-io/jetstream';

/**
 * The JetStream API error codes told apart here: nats.js's `JetStreamApiCodes`, and the server's
 * codes for a create that finds the name taken, which nats.js does not name (nats-server
 * `server/errors.json`).
 */
export const JetStreamCodes = {
  ...JetStreamApiCodes,
  /** JSStreamNameExistErr: "stream name already in use with a different configuration". */
  StreamNameExist: 10058,
  /** JSConsumerNameExistErr: "consumer name already in use". */
  ConsumerNameExist: 10013,
  /** JSConsumerAlreadyExists: "consumer already exists" (a create with other settings). */
  ConsumerAlreadyExists: 10148,
  /**
   * JSClusterNoPeersErr: "no suitable peers for placement". While a cluster forms (a meta leader
   * once a quorum is up, the last peer not joined yet) an R3 stream cannot be placed; nor while
   * fewer nodes than its replicas are up.
   */
  ClusterNoPeers: 10005,
} as const;

/** How long a create waits out a cluster that cannot place the stream yet, and how often it tries. */
const PLACEMENT_WAIT_MS = 60_000;
const PLACEMENT_RETRY_MS = 250;

/** Whether `error` is the JetStream API's answer with one of `codes`. */
export function isJetStreamError(error: unknown, ...codes: number[]): error is JetStreamApiError {
  return error instanceof JetStreamApiError && codes.includes(error.code);
}

/** A stream's settings: its name, and every setting this version of the service relies on. */
export type StreamSettings = Partial<StreamConfig> & { name: string };

/** A durable consumer's settings: its name, how it acknowledges and starts, and the rest. */
export type ConsumerSettings = Partial<ConsumerConfig> &
  Pick<ConsumerConfig, 'ack_policy' | 'deliver_policy'> & { durable_name: string };

/**
 * Settings the server takes only at creation: the fields of nats.js's `StreamConfig` that its
 * `StreamUpdateConfig` leaves out (the `satisfies` keeps this list complete when nats.js adds one).
 */
const STREAM_CREATION_ONLY = {
  retention: true,
  storage: true,
  max_consumers: true,
  first_seq: true,
  allow_msg_counter: true,
  persist_mode: true,
  sealed: true,
} satisfies Record<Exclude<keyof StreamConfig, keyof StreamUpdateConfig | 'name'>, true>;

/** The same for consumers: `ConsumerConfig` fields missing from `ConsumerUpdateConfig`. */
const CONSUMER_CREATION_ONLY = {
  ack_policy: true,
  deliver_policy: true,
  deliver_group: true,
  flow_control: true,
  idle_heartbeat: true,
  opt_start_seq: true,
  opt_start_time: true,
  rate_limit_bps: true,
  replay_policy: true,
  pause_until: true,
} satisfies Record<
  Exclude<keyof ConsumerConfig, keyof ConsumerUpdateConfig | 'durable_name' | 'name'>,
  true
>;

/**
 * Creates the stream, or brings an existing one to `wanted` (settings not named in `wanted` are
 * left as they are). Safe to run from every replica at once: an identical create succeeds on the
 * server, and a create that loses a race to other settings updates instead. A setting that
 * cannot change after creation (`allow_msg_counter`, `storage`, …) is refused with an error
 * naming it, before anything is changed.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  wanted: StreamSettings,
  /** How long a create waits out a cluster that cannot place the stream yet. */
  options: { placementWaitMs?: number } = {},
): Promise<StreamInfo> {
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(wanted.name);
  } catch (error) {
    if (!isJetStreamError(error, JetStreamCodes.StreamNotFound)) throw error;
    try {
      return await addWhenPlaceable(jsm, wanted, options.placementWaitMs ?? PLACEMENT_WAIT_MS);
    } catch (addError) {
      if (!isJetStreamError(addError, JetStreamCodes.StreamNameExist)) throw addError;
      info = await jsm.streams.info(wanted.name);
    }
  }
  const drifted = driftedSettings(wanted, info.config);
  if (drifted.length === 0) return info;
  refuseCreationOnly('stream', wanted.name, drifted, STREAM_CREATION_ONLY, info.config, wanted);
  const update = { ...info.config, ...wanted };
  // The server refuses a duplicate window longer than max_age; a shorter max_age (a KV bucket's
  // TTL) takes the window down with it unless the window is one of the wanted settings.
  if (wanted.duplicate_window === undefined && update.max_age > 0) {
    update.duplicate_window = Math.min(update.duplicate_window, update.max_age);
  }
  return jsm.streams.update(wanted.name, update);
}

/**
 * Creates the stream, waiting out "no suitable peers for placement" for up to `waitMs`
 * ({@link PLACEMENT_WAIT_MS} unless the caller says): a service that starts beside a cluster
 * still forming (or with a node down) gets its stream once the peers are there, instead of
 * failing its start. Any other refusal, or the same one past the wait, is thrown.
 */
async function addWhenPlaceable(
  jsm: JetStreamManager,
  wanted: StreamSettings,
  waitMs: number,
): Promise<StreamInfo> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      // A copy: nats.js writes into the configuration it is given.
      return await jsm.streams.add({ ...wanted });
    } catch (error) {
      if (!isJetStreamError(error, JetStreamCodes.ClusterNoPeers) || Date.now() >= deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, PLACEMENT_RETRY_MS));
    }
  }
}

/**
 * Creates the durable consumer on `stream`, or brings an existing one to `wanted`, with the same
 * guarantees as {@link ensureStream}: safe from every replica at once, and a setting fixed at
 * creation (`ack_policy`, `deliver_policy`, …) refused with an error naming it.
 */
export async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  wanted: ConsumerSettings,
): Promise<ConsumerInfo> {
  const name = wanted.durable_name;
  let info: ConsumerInfo;
  try {
    info = await jsm.consumers.info(stream, name);
  } catch (error) {
    if (!isJetStreamError(error, JetStreamCodes.ConsumerNotFound)) throw error;
    try {
      // A copy, for the same reason as a stream's.
      return await jsm.consumers.add(stream, { ...wanted });
    } catch (addError) {
      if (
        !isJetStreamError(
          addError,
          JetStreamCodes.ConsumerAlreadyExists,
          JetStreamCodes.ConsumerNameExist,
        )
      ) {
        throw addError;
      }
      info = await jsm.consumers.info(stream, name);
    }
  }
  const drifted = driftedSettings(wanted, info.config);
  if (drifted.length === 0) return info;
  refuseCreationOnly(
    'consumer',
    `${stream}/${name}`,
    drifted,
    CONSUMER_CREATION_ONLY,
    info.config,
    wanted,
  );
  return jsm.consumers.update(stream, name, { ...info.config, ...wanted });
}

/**
 * The stream of a KV bucket with the settings nats.js's `Kvm.create` gives one (limits retention,
 * rollups, discard new, deletes denied, the bucket's subjects), so a KV client opens it as a
 * bucket; `settings` add the bucket's own (history, TTL, storage, replicas).
 */
export function bucketStream(
  bucket: string,
  settings: Partial<StreamConfig> & { storage: StorageType; num_replicas: number },
): StreamSettings {
  return {
    name: `KV_${bucket}`,
    subjects: [`$KV.${bucket}.>`],
    retention: RetentionPolicy.Limits,
    allow_rollup_hdrs: true,
    allow_direct: true,
    deny_delete: true,
    discard: DiscardPolicy.New,
    ...settings,
  };
}

/** The names of the settings in `wanted` that `config` does not have as wanted. */
function driftedSettings(wanted: object, config: object): string[] {
  const have = new Map(Object.entries(config));
  return Object.entries(wanted)
    .filter(([key, value]) => value !== undefined && !sameSetting(have.get(key), value))
    .map(([key]) => key);
}

/** Throws, naming every setting that differs and that the server takes only at creation. */
function refuseCreationOnly(
  kind: 'stream' | 'consumer',
  name: string,
  drifted: readonly string[],
  creationOnly: Record<string, true>,
  config: object,
  wanted: object,
): void {
  const fixed = drifted.filter((key) => Object.hasOwn(creationOnly, key));
  if (fixed.length === 0) return;
  const have = new Map(Object.entries(config));
  const want = new Map(Object.entries(wanted));
  const shown = (value: unknown) => (value === undefined ? 'unset' : JSON.stringify(value));
  const differences = fixed.map(
    (key) => `${key} is ${shown(have.get(key))}, wanted ${shown(want.get(key))}`,
  );
  throw new Error(
    `${kind} ${name}: ${differences.join('; ')}. These settings cannot change after creation: ` +
      `the ${kind} must be deleted (what it holds moved first, if it matters) and created again.`,
  );
}

/**
 * Equal as settings: the server leaves a false flag out of the configuration it returns, arrays
 * compare by content, and an object by the keys wanted (the server adds its own to `metadata`).
 */
function sameSetting(have: unknown, want: unknown): boolean {
  if (have === undefined) return want === undefined || want === false;
  if (Array.isArray(have) && Array.isArray(want)) {
    return have.length === want.length && have.every((item, i) => sameSetting(item, want[i]));
  }
  if (isRecord(have) && isRecord(want)) {
    return Object.keys(want).every((key) => sameSetting(have[key], want[key]));
  }
  return have === want;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
