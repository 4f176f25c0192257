import { bucketStream, ensureStream } from '@handoff/bus';
import {
  jetstream,
  JetStreamApiCodes,
  JetStreamApiError,
  StorageType,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@handoff/contracts';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { createHash } from 'node:crypto';
import { HttpError, validationFailed } from './http/errors.ts';

/**
 * `Idempotency-Key` on POST (conventions §1): the first request with a key runs, every later one
 * with the same key (within the same scope, for 24 h) gets the first one's status and body back.
 *
 * Records live in the JetStream KV bucket {@link IDEMPOTENCY_BUCKET}, shared by every gateway
 * replica, under `sha256(scope + "\0" + key)` (hex): the raw key never becomes a KV key, so any
 * printable key works and keys of different scopes never collide.
 *
 * - `begin` claims the key with KV `create` (fails when the key exists, so exactly one replica
 *   wins) and stores `{ state: "in_flight", fingerprint, started_at }`.
 * - `complete` turns the claim into `{ state: "done", fingerprint, status, body }` with `update`
 *   on the claim's revision. Only answers the caller should see again are completed: 2xx and the
 *   handler's own 4xx answers. Validation failures and 429s happen before `begin`.
 * - `abandon` deletes the claim (on its revision), so a request that failed (5xx, or the handler
 *   threw) can be retried with the same key.
 * - While its request runs, the claim's holder writes it again every third of `inFlightMs` (a
 *   heartbeat, on its revision). A claim not written for `inFlightMs` belongs to a request that
 *   died with its replica; the next request with the same key and body takes it over with
 *   `update` on the stale revision, so only one of several concurrent retries wins. A long upload
 *   keeps its claim; a killed gateway's is free 15 s after its last beat (it was 60 s after the
 *   start: `npm run chaos` saw the SDK's retries of a call whose gateway was killed give up on
 *   `409 idempotency_key_in_use` first).
 * - A body whose record would not fit {@link MAX_RECORD_BYTES} (or that the route asks not to keep,
 *   e.g. because it contains a secret shown once) is not stored: the record keeps the status only,
 *   and a replay says `bodyStored: false`. The request is never run a second time.
 * - When NATS cannot be reached, `begin` throws 503 `service_unavailable` with `Retry-After: 1`:
 *   running a POST without its idempotency guarantee could apply it twice.
 */
export interface IdempotencyStore {
  /**
   * Claims the key for this request, or tells what to do instead.
   *
   * @param scope whose key this is: `int_…` (integration), `staff:<sub>`, `ip:<address>`…
   * @param key the validated `Idempotency-Key` ({@link parseIdempotencyKey})
   * @param fingerprint {@link requestFingerprint} of the request
   * @throws HttpError 409 `idempotency_key_in_use` while another request holds the key, 422
   *   `idempotency_key_reused` when the key was used for a different request, 503
   *   `service_unavailable` when the store cannot be reached.
   */
  begin(scope: string, key: string, fingerprint: string): Promise<IdempotencyOutcome>;
}

export type IdempotencyOutcome = IdempotencyClaim | IdempotencyReplay;

export interface IdempotencyClaim {
  kind: 'proceed';
  /**
   * Stores the answer for replays. Rejects (a plain `Error`) when the store cannot be written or
   * the claim was taken over meanwhile; log that and send the answer anyway.
   */
  complete(status: number, body: unknown, options?: CompleteOptions): Promise<void>;
  /** Releases the key so that it can be used again. Rejects like {@link complete}. */
  abandon(): Promise<void>;
}

export interface CompleteOptions {
  /** `false` keeps only the status (for bodies that must not be stored, e.g. one-time secrets). */
  storeBody?: boolean;
}

export interface IdempotencyReplay {
  kind: 'replay';
  status: number;
  /** The stored body; `undefined` when `bodyStored` is false. */
  body: unknown;
  /** False when the body was too large or not to be kept: answer with the status alone. */
  bodyStored: boolean;
}

export interface IdempotencyStoreOptions {
  /** How long a key is kept after its last write (the bucket's `max_age`). Default 24 h. */
  ttlMs?: number;
  /**
   * How long an in-flight claim not written again (its holder beats every third of it) blocks
   * other requests before it may be taken over. Default 15 s.
   */
  inFlightMs?: number;
  /** Timeout of each KV operation. Default 2 s. */
  timeoutMs?: number;
  /** Replicas of the bucket's stream (NATS_STREAM_REPLICAS). Default 1. */
  replicas?: number;
}

export const IDEMPOTENCY_BUCKET = 'HANDOFF_IDEMPOTENCY';
export const IDEMPOTENCY_STREAM = `KV_${IDEMPOTENCY_BUCKET}`;
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_IN_FLIGHT_MS = 15_000;
/** The bucket's `max_msg_size`: the largest record, headers included. */
export const MAX_RECORD_BYTES = 1024 * 1024;
// Room for the publish headers (`Nats-Expected-Last-Subject-Sequence`…), which count too.
const HEADER_ROOM_BYTES = 4096;
const DEFAULT_TIMEOUT_MS = 2000;
// Rounds of claim / read / take over before giving up with 409 (only under heavy contention).
const MAX_ROUNDS = 4;

const HEADER_POINTER = '/headers/idempotency-key';
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

type StoredRecord =
  | { state: 'in_flight'; fingerprint: string; started_at: string }
  | {
      state: 'done';
      fingerprint: string;
      status: number;
      body?: unknown;
      body_stored: boolean;
      completed_at: string;
    };

const nanos = (ms: number) => ms * 1_000_000;

/**
 * Validates the `Idempotency-Key` header: absent is fine (no idempotency); otherwise 1 to
 * {@link IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters (space included), else 422
 * `validation_failed` pointing at `/headers/idempotency-key`.
 */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  let problem: { code: string; detail: string } | undefined;
  if (header.length === 0) {
    problem = { code: 'too_small', detail: 'The Idempotency-Key header is empty.' };
  } else if (header.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    problem = {
      code: 'too_big',
      detail: `The Idempotency-Key header is over ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`,
    };
  } else if (!PRINTABLE_ASCII.test(header)) {
    problem = {
      code: 'invalid_format',
      detail: 'The Idempotency-Key header may contain printable ASCII characters only.',
    };
  }
  if (problem) throw validationFailed([{ pointer: HEADER_POINTER, ...problem }]);
  return header;
}

/**
 * SHA-256 (hex) of the method, the path and the body as canonical JSON (object keys sorted at
 * every depth, so key order does not matter; array order does). Pass the request path without the
 * query string, and the validated body.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(method.toUpperCase())
    .update('\0')
    .update(path)
    .update('\0')
    .update(canonicalJson(body))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  const text: string | undefined = JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
  // `undefined` (no body) serializes to nothing; keep it apart from every JSON text.
  return text ?? '';
}

/** The KV key of a scope's idempotency key: only hex digits, whatever the key contains. */
export function idempotencyRecordKey(scope: string, key: string): string {
  return createHash('sha256').update(scope).update('\0').update(key).digest('hex');
}

/**
 * Creates the bucket's stream, or brings an existing one to these settings. Safe to run from every
 * replica at once.
 */
export async function ensureIdempotencyBucket(
  jsm: JetStreamManager,
  options: { ttlMs?: number; replicas?: number } = {},
): Promise<void> {
  await ensureStream(
    jsm,
    bucketStream(IDEMPOTENCY_BUCKET, {
      // Records expire 24 h after their last write (the completion).
      max_age: nanos(options.ttlMs ?? IDEMPOTENCY_TTL_MS),
      // KV history 1: only the latest record per key.
      max_msgs_per_subject: 1,
      max_msg_size: MAX_RECORD_BYTES,
      // File storage: the records must outlive a NATS restart, or a retry after one would run
      // the request again.
      storage: StorageType.File,
      // NATS_STREAM_REPLICAS: records survive losing a node of a cluster.
      num_replicas: options.replicas ?? 1,
    }),
  );
}

/** Ensures the bucket and returns the store. Rejects when NATS cannot be reached. */
export async function createIdempotencyStore(
  nc: NatsConnection,
  options: IdempotencyStoreOptions = {},
): Promise<IdempotencyStore> {
  const inFlightMs = options.inFlightMs ?? DEFAULT_IN_FLIGHT_MS;
  const js = jetstream(nc, { timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
  await ensureIdempotencyBucket(await js.jetstreamManager(), {
    ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
    ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
  });
  // No direct gets: reads go to the stream leader, so a claim that just failed is always seen.
  const kv = await new Kvm(js).open(IDEMPOTENCY_BUCKET, { allow_direct: false });

  return {
    async begin(scope, key, fingerprint) {
      const recordKey = idempotencyRecordKey(scope, key);
      const claim = (): string =>
        JSON.stringify({
          state: 'in_flight',
          fingerprint,
          started_at: new Date().toISOString(),
        } satisfies StoredRecord);

      const held = (revision: number, value: string) =>
        proceed(kv, { recordKey, fingerprint, revision, value, beatEveryMs: inFlightMs / 3 });
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const value = claim();
        const created = await attempt(() => kv.create(recordKey, value));
        if (created !== CONFLICT) return held(created, value);

        let entry: KvEntry | null;
        try {
          entry = await kv.get(recordKey);
        } catch (error) {
          throw unavailable(error);
        }
        // Deleted (abandoned) or expired since our create failed: claim again.
        if (!entry || entry.operation !== 'PUT') continue;

        const record = readRecord(entry);
        if (record.fingerprint !== fingerprint) throw keyReused();
        if (record.state === 'done') {
          return {
            kind: 'replay',
            status: record.status,
            body: record.body_stored ? record.body : undefined,
            bodyStored: record.body_stored,
          };
        }
        const age = Date.now() - entry.created.getTime();
        if (age < inFlightMs) {
          // Renewed lately: its call runs, and usually ends within a second. A missed beat means
          // its gateway likely died: come back once the claim may be taken over.
          const missedBeat = age > (inFlightMs / 3) * 1.5;
          throw keyInUse(missedBeat ? Math.ceil((inFlightMs - age) / 1000) : 1);
        }

        // A stale claim: take it over, unless another request does so first.
        const stale = entry.revision;
        const taken = await attempt(() => kv.update(recordKey, value, stale));
        if (taken !== CONFLICT) return held(taken, value);
      }
      throw keyInUse();
    },
  };
}

/**
 * A claim this request holds: written again every `beatEveryMs` until it is completed or
 * abandoned (each write on the revision of the last, so a claim taken over stops beating).
 */
function proceed(
  kv: KV,
  claim: {
    recordKey: string;
    fingerprint: string;
    revision: number;
    value: string;
    beatEveryMs: number;
  },
): IdempotencyClaim {
  const { recordKey, fingerprint } = claim;
  let revision = claim.revision;
  let settled = false;
  // The beats and the settling write one after another, each on the revision the last one made.
  let writes: Promise<void> = Promise.resolve();
  const beat = setInterval(() => {
    writes = writes.then(async () => {
      if (settled) return;
      try {
        revision = await kv.update(recordKey, claim.value, revision);
      } catch (error) {
        // Taken over: no longer ours to keep. Unreachable store: the next beat tries again.
        if (isWrongLastSequence(error)) clearInterval(beat);
      }
    });
  }, claim.beatEveryMs);
  beat.unref();
  const settle = async (what: string) => {
    if (settled) throw new Error(`idempotency claim already settled; cannot ${what}`);
    settled = true;
    clearInterval(beat);
    await writes;
  };
  return {
    kind: 'proceed',
    async complete(status, body, options = {}) {
      if (!Number.isInteger(status) || status < 100 || status > 599) {
        throw new RangeError(`not an HTTP status: ${status}`);
      }
      await settle('complete');
      const completedAt = new Date().toISOString();
      let value = JSON.stringify({
        state: 'done',
        fingerprint,
        status,
        body,
        body_stored: true,
        completed_at: completedAt,
      } satisfies StoredRecord);
      if (
        options.storeBody === false ||
        Buffer.byteLength(value) > MAX_RECORD_BYTES - HEADER_ROOM_BYTES
      ) {
        value = JSON.stringify({
          state: 'done',
          fingerprint,
          status,
          body_stored: false,
          completed_at: completedAt,
        } satisfies StoredRecord);
      }
      try {
        await kv.update(recordKey, value, revision);
      } catch (error) {
        throw new Error(
          isWrongLastSequence(error)
            ? 'idempotency claim was taken over before the request completed'
            : 'idempotency record could not be stored',
          { cause: error },
        );
      }
    },
    async abandon() {
      await settle('abandon');
      try {
        // Only our own claim: a request that took it over keeps it.
        await kv.delete(recordKey, { previousSeq: revision });
      } catch (error) {
        if (isWrongLastSequence(error)) return;
        throw new Error('idempotency claim could not be released', { cause: error });
      }
    },
  };
}

const CONFLICT = Symbol('conflict');

/** Runs a conditional write: its revision, CONFLICT when the expected revision did not match. */
async function attempt(write: () => Promise<number>): Promise<number | typeof CONFLICT> {
  try {
    return await write();
  } catch (error) {
    if (isWrongLastSequence(error)) return CONFLICT;
    throw unavailable(error);
  }
}

function isWrongLastSequence(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence ||
      error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}

function readRecord(entry: KvEntry): StoredRecord {
  let value: unknown;
  try {
    value = entry.json();
  } catch {
    value = undefined;
  }
  if (isStoredRecord(value)) return value;
  throw new Error(`idempotency record ${entry.key} is malformed`);
}

function isStoredRecord(value: unknown): value is StoredRecord {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  if (typeof record.fingerprint !== 'string') return false;
  if (record.state === 'in_flight') return true;
  return (
    record.state === 'done' &&
    typeof record.status === 'number' &&
    typeof record.body_stored === 'boolean'
  );
}

function unavailable(cause: unknown): HttpError {
  const error = new HttpError(
    'service_unavailable',
    'The idempotency store did not answer in time; try again shortly.',
    { headers: { 'Retry-After': '1' } },
  );
  error.cause = cause;
  return error;
}

function keyInUse(retryAfterSeconds = 1): HttpError {
  return new HttpError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed; retry after it has finished.',
    { headers: { 'Retry-After': String(Math.max(1, retryAfterSeconds)) } },
  );
}

function keyReused(): HttpError {
  return new HttpError(
    'idempotency_key_reused',
    'This Idempotency-Key was already used for a different request (method, path or body).',
  );
}
