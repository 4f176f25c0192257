import {
  A2A_NOTIFICATION_TOKEN_HEADER,
  a2aStreamResponseOf,
  EventEnvelope,
} from '@handoff/contracts';
import type { SecretBox } from './secrets.ts';

/** What an A2A push endpoint keeps of its task and of the client's credentials (sealed). */
export interface A2aPushTarget {
  request_id: string;
  context_id: string;
  token_enc: string | null;
  authorization_enc: string | null;
}

/**
 * The body and headers of an A2A push notification (docs/a2a.md): the event as the A2A 1.0
 * `StreamResponse` it implies for the task, with the client's credentials as A2A asks (its
 * `Authorization` when it gave an authentication, else its token in
 * `X-A2A-Notification-Token`). The delivery is signed and retried like any other.
 */
export function a2aDelivery(
  target: A2aPushTarget,
  envelope: string,
  secrets: SecretBox,
): { body: string; headers: Record<string, string> } {
  const event = EventEnvelope.parse(JSON.parse(envelope));
  const body = JSON.stringify(
    a2aStreamResponseOf(event, { taskId: target.request_id, contextId: target.context_id }),
  );
  const headers: Record<string, string> = {};
  if (target.authorization_enc !== null) {
    headers.authorization = secrets.open(target.authorization_enc);
  } else if (target.token_enc !== null) {
    headers[A2A_NOTIFICATION_TOKEN_HEADER.toLowerCase()] = secrets.open(target.token_enc);
  }
  return { body, headers };
}
