import { SEQUENCES_BUCKET, SequenceState } from '@handoff/contracts';
import { createSerializer } from '@handoff/store';
import { JetStreamApiCodes, JetStreamApiError, type JetStreamClient } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { boundedCache } from './cache.ts';

/**
 * The `sequence` of a request's event: the same number whenever it is asked for the same event.
 * `first`: the request's first event (`request.created`), whose entry cannot exist yet unless the
 * event was published before (a retry): it is created without reading first.
 */
export interface SequenceAllocator {
  (
    requestId: string,
    eventId: string,
    options?: { first?: boolean; livemode?: boolean },
  ): Promise<number>;
  /**
   * The same allocation, with whether the request is live as its entry says: a test request's
   * entry says `livemode: false` from its first event on (`options.livemode`), so every service
   * learns a request's mode without asking intake.
   */
  withMode(
    requestId: string,
    eventId: string,
    options?: { first?: boolean; livemode?: boolean },
  ): Promise<{ sequence: number; livemode: boolean }>;
}

const MAX_ATTEMPTS = 50;
/** Requests whose last entry this process remembers, so a busy request costs one write, no read. */
const REMEMBERED_REQUESTS = 10_000;

interface Known {
  revision: number;
  state: SequenceState;
}

/**
 * Allocates sequences from the `HANDOFF_SEQUENCES` bucket: read the request's entry, hand out the
 * event's number if it is among the recent ones, else write `last + 1` with a revision
 * compare-and-set and read again on a conflict (another service or replica wrote first). Every
 * service allocates this way, so there is one counter per request and no round trip to intake.
 *
 * A remembered entry may be stale; that only costs a conflict and a read, never a wrong number:
 * numbers are never taken back, so an event id found in a stale entry really has that number.
 */
export function sequenceAllocator(js: JetStreamClient): SequenceAllocator {
  let bucket: Promise<KV> | undefined;
  // No direct gets: reads go to the stream leader, so the entry read after a conflict is current.
  const open = () => (bucket ??= new Kvm(js).open(SEQUENCES_BUCKET.name, { allow_direct: false }));
  // One allocation per request at a time in this process: no conflicts with ourselves.
  const serialize = createSerializer();
  const known = boundedCache<string, Known>({ max: REMEMBERED_REQUESTS });

  const read = async (kv: KV, requestId: string): Promise<Known | undefined> => {
    const entry = await kv.get(requestId);
    if (!entry || entry.operation !== 'PUT') return undefined;
    return { revision: entry.revision, state: SequenceState.parse(entry.json()) };
  };

  const withMode = (
    requestId: string,
    eventId: string,
    options?: { first?: boolean; livemode?: boolean },
  ) =>
    serialize(requestId, async () => {
      const kv = await open();
      let current =
        known.get(requestId) ?? (options?.first ? undefined : await read(kv, requestId));
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const given = current?.state.recent.find(([id]) => id === eventId);
        if (given) {
          if (current) known.set(requestId, current);
          return { sequence: given[1], livemode: current?.state.livemode !== false };
        }
        const sequence = (current?.state.last ?? 0) + 1;
        const livemode = current ? current.state.livemode : options?.livemode;
        const state: SequenceState = {
          last: sequence,
          recent: [...(current?.state.recent ?? []), [eventId, sequence] as [string, number]].slice(
            -SEQUENCES_BUCKET.recentEvents,
          ),
          ...(livemode === false ? { livemode } : {}),
        };
        const value = JSON.stringify(state);
        try {
          const revision = current
            ? await kv.update(requestId, value, current.revision)
            : await kv.create(requestId, value);
          known.set(requestId, { revision, state });
          return { sequence, livemode: livemode !== false };
        } catch (error) {
          if (!isRevisionConflict(error)) throw error;
          known.delete(requestId);
          current = await read(kv, requestId);
        }
      }
      throw new Error(`could not allocate a sequence for ${requestId}: too many writers at once`);
    });
  const allocate: SequenceAllocator = async (requestId, eventId, options) =>
    (await withMode(requestId, eventId, options)).sequence;
  allocate.withMode = withMode;
  return allocate;
}

/**
 * Brings a request's entry up to numbers handed out elsewhere (the counters request documents
 * carried before this bucket): `last` becomes at least `last`, and `given` joins the recent
 * pairs, so those events keep their numbers and new ones continue after them.
 */
export async function adoptSequence(
  js: JetStreamClient,
  requestId: string,
  last: number,
  given: readonly (readonly [string, number])[],
): Promise<void> {
  const kv = await new Kvm(js).open(SEQUENCES_BUCKET.name, { allow_direct: false });
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const entry = await kv.get(requestId);
    const current =
      entry && entry.operation === 'PUT' ? SequenceState.parse(entry.json()) : undefined;
    const byEvent = new Map<string, number>([...given, ...(current?.recent ?? [])]);
    const state: SequenceState = {
      last: Math.max(last, current?.last ?? 0),
      recent: [...byEvent].sort(([, a], [, b]) => a - b).slice(-SEQUENCES_BUCKET.recentEvents),
      ...(current?.livemode === false ? { livemode: false } : {}),
    };
    const value = JSON.stringify(state);
    try {
      if (entry && entry.operation === 'PUT') await kv.update(requestId, value, entry.revision);
      else await kv.create(requestId, value);
      return;
    } catch (error) {
      if (!isRevisionConflict(error)) throw error;
    }
  }
  throw new Error(`could not adopt the sequence of ${requestId}: too many writers at once`);
}

/** Whether a KV write was refused because the entry moved past the revision it was based on. */
export function isRevisionConflict(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence ||
      error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}

/**
 * Whether a request is live, as its `HANDOFF_SEQUENCES` entry says (written with its first event,
 * `request.created`): any service can tell a test request (`livemode: false`, test mode) without
 * asking intake. A request's mode never changes, so answers are kept; an unknown request reads as
 * live.
 */
export function requestModes(js: JetStreamClient): (requestId: string) => Promise<boolean> {
  let bucket: Promise<KV> | undefined;
  const open = () => (bucket ??= new Kvm(js).open(SEQUENCES_BUCKET.name));
  const modes = boundedCache<string, boolean>({ max: REMEMBERED_REQUESTS });
  return async (requestId) => {
    const kept = modes.get(requestId);
    if (kept !== undefined) return kept;
    const entry = await (await open()).get(requestId);
    if (!entry || entry.operation !== 'PUT') return true;
    const livemode = SequenceState.parse(entry.json()).livemode !== false;
    modes.set(requestId, livemode);
    return livemode;
  };
}
