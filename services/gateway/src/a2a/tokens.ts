import { bucketStream, ensureStream } from '@handoff/bus';
import { boundedCache } from '@handoff/runtime';
import { jetstream, StorageType } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from 'node:crypto';
import { z } from 'zod';

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

  const seal = (name: string, task: HeldTask): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(name));
    const data = Buffer.concat([cipher.update(JSON.stringify(task), 'utf8'), cipher.final()]);
    return ['v1', ...[iv, cipher.getAuthTag(), data].map((p) => p.toString('base64url'))].join('.');
  };
  const open = (name: string, sealed: string): HeldTask => {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !data) throw new Error('not a sealed A2A record');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      .setAAD(Buffer.from(name))
      .setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]);
    return HeldTask.parse(JSON.parse(plain.toString('utf8')));
  };

  return {
    async hold(integrationId, requestId, task) {
      const name = recordKey(integrationId, requestId);
      if (name === undefined) throw new Error('an integration or request id out of shape');
      await kv.put(name, seal(name, task));
      opened.set(name, task);
    },
    async get(integrationId, requestId) {
      const name = recordKey(integrationId, requestId);
      if (name === undefined) return undefined;
      const held = opened.get(name);
      if (held) return held;
      const entry = await kv.get(name);
      if (!entry || entry.operation !== 'PUT') return undefined;
      const task = open(name, entry.string());
      opened.set(name, task);
      return task;
    },
  };
}
