// Work queues: JetStream work-queue streams private to one service (the dispatcher's deliveries,
// the notifications' reminders). A message is one job; one not due yet, or to be tried again,
// waits in the server as a delayed nak, so nothing polls a database for it, and only the queue's
// consumer ever finishes it.
import {
  AckPolicy,
  DeliverPolicy,
  RetentionPolicy,
  StorageType,
  type ConsumerInfo,
} from '@nats-io/jetstream';
import type { Bus } from './connection.ts';
import { ensureConsumer, ensureStream, type ConsumerSettings } from './jetstream.ts';

const nanos = (ms: number) => ms * 1_000_000;

export interface WorkQueueStream {
  name: string;
  subjects: readonly string[];
  /** How long a job published again with the same message id is stored only once. */
  duplicateWindowMs: number;
}

export interface WorkQueue {
  /**
   * Creates the stream or brings it to these settings, once per process; a try that failed is
   * made again by the next call.
   */
  ensure(): Promise<void>;
  /** Queues a job; one published again with the same `msgID` inside the window is stored once. */
  publish(subject: string, job: unknown, msgID: string): Promise<void>;
  /** Creates the queue's one durable consumer ({@link workQueueConsumer}). */
  ensureConsumer(durableName: string, ackWaitMs: number): Promise<ConsumerInfo>;
}

export function workQueue(bus: Bus, stream: WorkQueueStream, replicas: number): WorkQueue {
  let ready: Promise<void> | undefined;
  const ensure = () => {
    ready ??= ensureStream(bus.jsm, {
      name: stream.name,
      num_replicas: replicas,
      subjects: [...stream.subjects],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      duplicate_window: nanos(stream.duplicateWindowMs),
    }).then(
      () => undefined,
      (error: unknown) => {
        ready = undefined;
        throw error;
      },
    );
    return ready;
  };
  return {
    ensure,
    async publish(subject, job, msgID) {
      await ensure();
      await bus.js.publish(subject, JSON.stringify(job), { msgID });
    },
    ensureConsumer: (durableName, ackWaitMs) =>
      ensureConsumer(bus.jsm, stream.name, workQueueConsumer(durableName, ackWaitMs)),
  };
}

/**
 * The settings of a work queue's one durable pull consumer, shared by every replica. The ack wait
 * is how long a replica that died holding a job keeps it from the others (a live one reports its
 * jobs in progress).
 */
export function workQueueConsumer(durableName: string, ackWaitMs: number): ConsumerSettings {
  return {
    durable_name: durableName,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ackWaitMs),
    // Jobs wait in the server as delayed naks until due or tried again; only the consumer
    // finishes one.
    max_deliver: -1,
    // Every job waiting so is pending: however many wait (days of a dead endpoint's deliveries)
    // must not stop the queue for the others.
    max_ack_pending: -1,
  };
}
