import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The request a task follows: its id and the token every call about it needs. */
export interface TaskRef {
  requestId: string;
  requestToken: string;
}

const PREFIX = 'htask_';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The key that seals task ids, derived from the agent key that created them: every replica (and a
 * restarted stdio server) opens a task id with no shared state and no secret of its own, and only
 * a caller holding the same agent key can, which is also what the request token demands anyway.
 */
const keyFor = (apiKey: string) =>
  Buffer.from(hkdfSync('sha256', apiKey, 'handoff-mcp', 'task-id v1', 32));

/**
 * A task id is the request's id and token sealed (AES-256-GCM): the task's state is always read
 * from the request itself, and the token never appears in clear in a task id a client may log.
 */
export function sealTaskId(apiKey: string, ref: TaskRef): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFor(apiKey), iv);
  const body = Buffer.concat([
    cipher.update(`${ref.requestId}\n${ref.requestToken}`, 'utf8'),
    cipher.final(),
  ]);
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The request of a task id sealed for this agent key, or `undefined` for any other string. */
export function openTaskId(apiKey: string, taskId: string): TaskRef | undefined {
  if (!taskId.startsWith(PREFIX) || taskId.length > 1_000) return undefined;
  const raw = Buffer.from(taskId.slice(PREFIX.length), 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(apiKey), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const text = Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
    const [requestId, requestToken, ...rest] = text.split('\n');
    if (!requestId || !requestToken || rest.length > 0) return undefined;
    return { requestId, requestToken };
  } catch {
    return undefined;
  }
}
