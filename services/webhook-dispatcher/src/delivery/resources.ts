import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import type { SendOptions } from '../adapters/sender.ts';
import type { SecretBox } from '../domain/secrets.ts';
import type { Recorder } from '../store/deliveries.ts';
import type { DeliveryQueue } from '../store/delivery-queue.ts';
import type { EndpointDirectory } from '../store/endpoint-directory.ts';

/**
 * What the parts of a delivery share, made once when the worker starts: the attempt reads the
 * endpoint and sends, the outcome writes the records, queues the retry and marks the endpoint.
 */
export interface DeliveryResources {
  store: Store;
  directory: EndpointDirectory;
  queue: DeliveryQueue;
  records: Recorder;
  secrets: SecretBox;
  logger: Logger;
  /** How every attempt sends (timeout, target policy, how much of the answer is kept). */
  send: Pick<SendOptions, 'timeoutMs' | 'policy' | 'responseBodyLimit'>;
  /** Seconds between attempts (`WEBHOOK_RETRY_SCHEDULE`). */
  schedule: readonly number[];
  /** An endpoint failing this long without a success is disabled. */
  disableAfterSeconds: number;
}
