import { bucketStream, ensureStream } from '@handoff/bus';
import { SEQUENCES_BUCKET, SequenceState } from '@handoff/contracts';
import { isRevisionConflict } from '@handoff/runtime';
import { StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { overflowOf, REQUEST_VIEWS_BUCKET, RequestView, VIEW_MAX_BYTES } from './document.ts';

/** A view as read, with the revision a write of it compares. */
export interface Entry {
  view: RequestView;
  revision: number;
}

/** The views' bucket, and the sequences' (read only), as the read model uses them. */
export interface ViewsBucket {
  /**
   * A request's view. A direct get, which any replica of the stream may answer and so may be a
   * little behind: a view that misses events is not current (the read takes the services' path)
   * and its compare-and-set fails. `leader`: from the stream's leader, after such a failure.
   */
  read(requestId: string, options?: { leader?: boolean }): Promise<Entry | undefined>;
  /**
   * Writes a view: created when `revision` is undefined, else replaced if it is still at that
   * revision. False when another write came first. A view too large to keep is deleted instead.
   */
  write(requestId: string, view: RequestView, revision?: number): Promise<boolean>;
  remove(requestId: string, revision: number): Promise<void>;
  /** The last sequence the request's events were given: 0 before its first. */
  lastSequence(requestId: string): Promise<number>;
}

/**
 * Whether an id can be a key: request ids are, and anything else names no request (a key the
 * KV client refuses would fail the call, where the services answer 404).
 */
const isKey = (id: string) => /^[A-Za-z0-9_-]{1,200}$/.test(id);

/** Creates the bucket's stream, or brings it to these settings; safe from every replica at once. */
export async function ensureViewsBucket(jsm: JetStreamManager, replicas: number): Promise<void> {
  await ensureStream(
    jsm,
    bucketStream(REQUEST_VIEWS_BUCKET, {
      max_msgs_per_subject: 1,
      max_msg_size: VIEW_MAX_BYTES + 4_096,
      // File storage: views are rebuilt from the services when missing, but a restart of NATS
      // should not make every read take the long way.
      storage: StorageType.File,
      num_replicas: replicas,
    }),
  );
}

export async function openViewsBucket(js: JetStreamClient, replicas: number): Promise<ViewsBucket> {
  await ensureViewsBucket(await js.jetstreamManager(), replicas);
  // Direct gets cost the server and the client less than the API's (no JSON or base64 around
  // the value); the leader's answer is asked only after a compare-and-set found it stale.
  const views = await new Kvm(js).open(REQUEST_VIEWS_BUCKET);
  const leader = await new Kvm(js).open(REQUEST_VIEWS_BUCKET, { allow_direct: false });
  // A sequence must come from the leader: one handed out just before the read must be seen.
  // The services create the sequences' bucket: opened when first needed.
  let sequences: Promise<KV> | undefined;
  const openSequences = () =>
    (sequences ??= new Kvm(js)
      .open(SEQUENCES_BUCKET.name, { allow_direct: false })
      .catch((error: unknown) => {
        sequences = undefined;
        throw error;
      }));

  return {
    async read(requestId, options = {}) {
      if (!isKey(requestId)) return undefined;
      const found = await (options.leader ? leader : views).get(requestId);
      if (!found || found.operation !== 'PUT') return undefined;
      const view = RequestView.safeParse(found.json());
      if (!view.success) return undefined;
      return { view: view.data, revision: found.revision };
    },

    async write(requestId, view, revision) {
      let json = JSON.stringify(view);
      // Too large to rewrite at every event: only the owner stays.
      if (json.length > VIEW_MAX_BYTES) json = JSON.stringify(overflowOf(view));
      try {
        if (revision === undefined) await views.create(requestId, json);
        else await views.update(requestId, json, revision);
        return true;
      } catch (error) {
        if (isRevisionConflict(error)) return false;
        throw error;
      }
    },

    async remove(requestId, revision) {
      await views.delete(requestId, { previousSeq: revision });
    },

    async lastSequence(requestId) {
      if (!isKey(requestId)) return 0;
      const found = await (await openSequences()).get(requestId);
      if (!found || found.operation !== 'PUT') return 0;
      return SequenceState.parse(found.json()).last;
    },
  };
}
