// One attempt of a delivery: the endpoint as the directory has it now, the signed call, and what
// the answer means for the delivery. Nothing is written here (see outcome.ts).
import { sendWebhook, type SendResult } from '../adapters/sender.ts';
import { a2aDelivery } from '../domain/a2a-push.ts';
import { nextAttemptDelayMs } from '../domain/schedule.ts';
import type { SecretBox } from '../domain/secrets.ts';
import type { DeliveryJob } from '../store/delivery-queue.ts';
import type { EndpointDoc } from '../store/endpoints.ts';
import { inAttemptSpan } from './attempt-span.ts';
import { attemptMade } from './metrics.ts';
import type { DeliveryResources } from './resources.ts';

/** What an answer means for its delivery. */
export type Verdict =
  | { kind: 'delivered' }
  /** Another attempt, due at `at` (Unix milliseconds). */
  | { kind: 'retry'; at: number }
  /** No attempt more: the endpoint is gone (410), or the schedule is exhausted. */
  | { kind: 'give-up'; why: 'gone' | 'exhausted' };

export type AttemptResult =
  /** The endpoint was deleted, or disabled since the delivery was made: nothing was sent. */
  | { kind: 'cancelled' }
  | {
      kind: 'sent';
      /** The endpoint as it was when the attempt went out. */
      endpoint: EndpointDoc;
      attemptedAt: Date;
      send: SendResult;
      verdict: Verdict;
    };

/**
 * The endpoint, when the job may still go to it. Disabling an endpoint cancels the deliveries
 * made before, even if it is enabled again since (the time it was disabled, not enabled, is the
 * cut: a replica's clock a little behind cannot cancel a delivery made after it came back).
 */
export function liveEndpoint(
  job: Pick<DeliveryJob, 'made_at'>,
  endpoint: EndpointDoc | null,
): EndpointDoc | null {
  if (!endpoint?.enabled) return null;
  if (endpoint.disabled_at !== undefined && job.made_at < endpoint.disabled_at.getTime()) {
    return null;
  }
  return endpoint;
}

/** The verdict on attempt number `attempt`'s answer, a retry timed from `now` on `schedule`. */
export function verdictOf(
  send: Pick<SendResult, 'outcome' | 'retryAfterSeconds'>,
  attempt: number,
  schedule: readonly number[],
  now = Date.now(),
): Verdict {
  if (send.outcome === 'success') return { kind: 'delivered' };
  if (send.outcome === 'gone') return { kind: 'give-up', why: 'gone' };
  const delay = nextAttemptDelayMs(attempt, schedule, send.retryAfterSeconds);
  return delay === null
    ? { kind: 'give-up', why: 'exhausted' }
    : { kind: 'retry', at: now + delay };
}

/** The secrets that sign now: the current one, and the previous one during its grace period. */
export function signingSecrets(doc: EndpointDoc, secrets: SecretBox, now = new Date()): string[] {
  const list = [secrets.open(doc.secret_enc)];
  if (
    doc.previous_secret_enc &&
    doc.previous_secret_expires_at &&
    doc.previous_secret_expires_at > now
  ) {
    list.push(secrets.open(doc.previous_secret_enc));
  }
  return list;
}

/** The steps of a job, as the worker reports one that never ends. */
export type JobStep =
  'reading the endpoint' | 'sending' | 'recording' | 'queueing the retry' | 'updating the endpoint';

/**
 * Makes the job's attempt. The endpoint comes from the directory, which every write of an
 * endpoint updates before its call answers (on this replica; on the others, once the broadcast
 * arrives): a rotated secret or a disabled endpoint counts from then. `onStep` hears each step as
 * it begins.
 */
export async function attemptDelivery(
  resources: Pick<DeliveryResources, 'directory' | 'secrets' | 'send' | 'schedule'>,
  job: DeliveryJob,
  onStep: (step: JobStep) => void = () => undefined,
): Promise<AttemptResult> {
  onStep('reading the endpoint');
  const endpoint = liveEndpoint(job, await resources.directory.byId(job.endpoint_id));
  if (!endpoint) return { kind: 'cancelled' };
  onStep('sending');
  const attemptedAt = new Date();
  const a2a = endpoint.a2a ? a2aDelivery(endpoint.a2a, job.event.body, resources.secrets) : null;
  const send = await inAttemptSpan(job, endpoint.url, () =>
    sendWebhook(
      {
        url: endpoint.url,
        secrets: signingSecrets(endpoint, resources.secrets, attemptedAt),
        ...(a2a ? { headers: a2a.headers } : {}),
      },
      { id: job.event.id, body: a2a?.body ?? job.event.body },
      resources.send,
    ),
  );
  attemptMade(send);
  const verdict = verdictOf(send, job.attempt, resources.schedule);
  return { kind: 'sent', endpoint, attemptedAt, send, verdict };
}
