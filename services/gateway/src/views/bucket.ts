import { bucketStream, ensureStream } from '@handoff/bus';
import { SEQUENCES_BUCKET, SequenceState } from '@handoff/contracts';
import { isRevisionConflict } from '@handoff/runtime';
import { StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { REQUEST_VIEWS_BUCKET, RequestView, VIEW_MAX_BYTES } from './document.ts';

/** A view as read, with the revision a write of it compares. */
export interface Entry {
  view: RequestView;
  revision: number;
}

/** The views' bucket, and the sequences' (read only), as the read model uses them. */
export interface ViewsBucket {
  read(requestId: string): Promise<Entry | undefined>;
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
  // Reads go to the stream leader: a view or a sequence just written is what the next read sees.
  const views = await new Kvm(js).open(REQUEST_VIEWS_BUCKET, { allow_direct: false });
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
    async read(requestId) {
      if (!isKey(requestId)) return undefined;
      const found = await views.get(requestId);
      if (!found || found.operation !== 'PUT') return undefined;
      const view = RequestView.safeParse(found.json());
      if (!view.success) return undefined;
      return { view: view.data, revision: found.revision };
    },

    async write(requestId, view, revision) {
      const json = JSON.stringify(view);
      if (json.length > VIEW_MAX_BYTES) {
        // Too large to rewrite at every event: the request goes without one.
        if (revision !== undefined) await views.delete(requestId, { previousSeq: revision });
        return true;
      }
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
