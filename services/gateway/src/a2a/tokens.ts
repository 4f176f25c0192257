import { bucketStream, ensureStream } from '@handoff/bus';
import { boundedCache } from '@handoff/runtime';
import { jetstream, StorageType } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { createSecretKey } from 'node:crypto';
import { z } from 'zod';
import { open, seal } from '../http/sealed.ts';

/**
 * The request tokens the A2A binding holds. A2A clients know only their key and the task id, so
 * the token that `POST /v1/ai-to-human-request` returns once is kept here, for the integration
 * that created the task: the binding then acts on the request through the same token check as
 * the REST routes, and a task is reachable only by its integration (another's key finds no
 * token under its own id, and so no task). Kept with it: what the task's A2A view needs that the
 * request does not hold (the client's context id, its first message's id).
 *
 * The records live in the JetStream KV bucket {@link A2A_TOKENS_BUCKET} (file storage, the
 * stream's replicas), shared by every gateway replica; a write is acknowledged once stored, so
 * the task the client is told of survives a restart. Each record is sealed with AES-256-GCM under
 * A2A_TOKENS_KEY, its key as additional data, so a record moved under another integration's key
 * does not open.
 */
export const A2A_TOKENS_BUCKET = 'HANDOFF_A2A_TOKENS';

const HeldTask = z.object({
  token: z.string().min(1),
  context_id: z.string().min(1),
  message_id: z.string().min(1),
});
export type HeldTask = z.infer<typeof HeldTask>;

export interface TaskTokens {
  hold(integrationId: string, requestId: string, task: HeldTask): Promise<void>;
  /** The integration's record of the request; undefined when it holds none. */
  get(integrationId: string, requestId: string): Promise<HeldTask | undefined>;
}

/** Records kept opened in this replica (they never change once written). */
const HELD = 10_000;
const KEY_PART = /^[A-Za-z0-9_-]{1,64}$/;

export async function createTaskTokens(
  nc: NatsConnection,
  options: { keyBase64: string; replicas: number; timeoutMs: number },
): Promise<TaskTokens> {
  const key = createSecretKey(Buffer.from(options.keyBase64, 'base64'));
  const js = jetstream(nc, { timeout: options.timeoutMs });
  await ensureStream(
    await js.jetstreamManager(),
    bucketStream(A2A_TOKENS_BUCKET, {
      max_msgs_per_subject: 1,
      max_msg_size: 4_096,
      storage: StorageType.File,
      num_replicas: options.replicas,
    }),
  );
  // Reads go to the stream leader: a task another replica just created is found at once.
  const kv = await new Kvm(js).open(A2A_TOKENS_BUCKET, { allow_direct: false });
  const opened = boundedCache<string, HeldTask>({ max: HELD });

  const recordKey = (integrationId: string, requestId: string): string | undefined =>
    KEY_PART.test(integrationId) && KEY_PART.test(requestId)
      ? `${integrationId}.${requestId}`
      : undefined;

  // Versioned, so that a later format can be told apart from the records already kept.
  const sealTask = (name: string, task: HeldTask): string =>
    `v1.${seal(key, JSON.stringify(task), name)}`;
  const openTask = (name: string, sealed: string): HeldTask => {
    if (!sealed.startsWith('v1.')) throw new Error('not a sealed A2A record');
    return HeldTask.parse(JSON.parse(open(key, sealed.slice('v1.'.length), name)));
  };

  return {
    async hold(integrationId, requestId, task) {
      const name = recordKey(integrationId, requestId);
      if (name === undefined) throw new Error('an integration or request id out of shape');
      await kv.put(name, sealTask(name, task));
      opened.set(name, task);
    },
    async get(integrationId, requestId) {
      const name = recordKey(integrationId, requestId);
      if (name === undefined) return undefined;
      const held = opened.get(name);
      if (held) return held;
      const entry = await kv.get(name);
      if (!entry || entry.operation !== 'PUT') return undefined;
      const task = openTask(name, entry.string());
      opened.set(name, task);
      return task;
    },
  };
}
