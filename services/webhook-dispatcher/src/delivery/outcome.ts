// Recording an attempt's outcome: its log entry and its delivery's record, the next attempt
// queued, and the endpoint's state, all before the job is finished, so a kill cannot lose one.
import { newId } from '@handoff/contracts';
import {
  expiryBucket,
  type AttemptDoc,
  type DeliveryDoc,
  type DeliveryStatus,
  type RecordWrite,
} from '../store/deliveries.ts';
import type { DeliveryJob } from '../store/delivery-queue.ts';
import type { AttemptResult, JobStep } from './attempt.ts';
import { applyEndpointHealth, endpointHealth } from './endpoint-health.ts';
import { deliveryParked } from './metrics.ts';
import type { DeliveryResources } from './resources.ts';

/** What an attempt changes in its delivery's record. */
export type DeliveryChange = Pick<
  DeliveryDoc,
  'status' | 'attempts' | 'next_attempt_at' | 'expires_bucket'
>;

/**
 * How the record is written ({@link RecordWrite}). `sureFirst`: surely the delivery's first
 * attempt (a job taken for the first time, offered by the fan-out or new from the queue, that an
 * event handled before did not queue). Only such a one that succeeds needs no delivery record: no
 * earlier try can have left one.
 */
export function recordWrite(
  attempt: number,
  status: DeliveryStatus,
  sureFirst: boolean,
): RecordWrite {
  if (attempt > 1) return 'update';
  if (status !== 'succeeded') return 'insert';
  return sureFirst ? 'none' : 'finish';
}

/** The delivery's record after the attempt, finished ones expiring counted from `now`. */
export function deliveryChange(
  job: Pick<DeliveryJob, 'attempt'>,
  result: AttemptResult,
  now = Date.now(),
): DeliveryChange {
  if (result.kind === 'cancelled') {
    const expires_bucket = expiryBucket(now);
    return {
      status: 'cancelled',
      attempts: job.attempt - 1,
      next_attempt_at: null,
      expires_bucket,
    };
  }
  const { verdict } = result;
  if (verdict.kind === 'retry') {
    const next_attempt_at = new Date(verdict.at);
    return { status: 'pending', attempts: job.attempt, next_attempt_at, expires_bucket: null };
  }
  return {
    status: verdict.kind === 'delivered' ? 'succeeded' : 'failed',
    attempts: job.attempt,
    next_attempt_at: null,
    expires_bucket: expiryBucket(now),
  };
}

/** The attempt's log entry. */
export function attemptLog(
  job: DeliveryJob,
  result: Extract<AttemptResult, { kind: 'sent' }>,
): AttemptDoc {
  const { send, verdict } = result;
  return {
    _id: newId('wha'),
    endpoint_id: result.endpoint._id,
    event_id: job.event.id,
    event_type: job.event.type,
    attempt: job.attempt,
    attempted_at: result.attemptedAt,
    status_code: send.statusCode,
    duration_ms: send.durationMs,
    error: send.error,
    response_body: send.responseBody,
    next_attempt_at: verdict.kind === 'retry' ? new Date(verdict.at) : null,
  };
}

/**
 * Records the outcome; the caller then finishes the job. The log entry and the record go in one
 * batch with other attempts' (the recorder's group commit); the retry is a new job, due later.
 * `onStep` hears each step as it begins.
 */
export async function recordOutcome(
  resources: Pick<DeliveryResources, 'records' | 'queue' | 'store' | 'directory' | 'logger'> &
    Pick<DeliveryResources, 'disableAfterSeconds'>,
  job: DeliveryJob,
  sureFirst: boolean,
  result: AttemptResult,
  onStep: (step: JobStep) => void = () => undefined,
): Promise<void> {
  onStep('recording');
  const change = deliveryChange(job, result);
  const now = new Date();
  const delivery: DeliveryDoc = {
    _id: job.delivery_id,
    endpoint_id: job.endpoint_id,
    event_id: job.event.id,
    created_at: now,
    updated_at: now,
    ...change,
  };
  const write = recordWrite(job.attempt, change.status, sureFirst);
  if (result.kind === 'cancelled') {
    await resources.records.record(null, delivery, write);
    return;
  }
  await resources.records.record(attemptLog(job, result), delivery, write);
  const { verdict } = result;
  if (verdict.kind === 'retry') {
    onStep('queueing the retry');
    await resources.queue.publish({ ...job, attempt: job.attempt + 1, not_before: verdict.at });
  } else if (verdict.kind === 'give-up') {
    deliveryParked(verdict.why);
  }
  const health = endpointHealth(
    result.endpoint,
    result.send.outcome,
    result.attemptedAt,
    resources.disableAfterSeconds,
  );
  onStep('updating the endpoint');
  await applyEndpointHealth(resources, result.endpoint, health);
}
