import type { Bus } from '@handoff/bus';
import type { Logger } from '@handoff/observability';
import { requestModes, type Outbox } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import type { Collection } from 'mongodb';
import type { PaymentProcessor } from '../adapters/index.ts';
import { paymentRequests, payments } from '../store/collections.ts';
import type { PaymentRequestDoc } from '../store/payment-requests.ts';
import type { PaymentDoc } from '../store/payments.ts';

export interface PaymentDeps {
  /** For intake's fresh status read of a request before an approval. */
  bus: Bus;
  store: Store;
  logger: Logger;
  outbox: Outbox;
  /** The payment processor `PAYMENT_PROVIDER` configured; new payments go through it. */
  processor: PaymentProcessor;
}

/** What the domain functions share: collections, publishing, and work that outlives a call. */
export interface PaymentContext extends PaymentDeps {
  requests: Collection<PaymentRequestDoc>;
  payments: Collection<PaymentDoc>;
  /** Whether a request is live (false: a test request, whose payments no processor charges). */
  isLive(requestId: string): Promise<boolean>;
  /** Publishes messages just written into a document's outbox; a failure is left to the sweep. */
  publish: Outbox['publishOrLeave'];
  /** Starts `task` without the current call waiting for it; `idle()` waits for all of them. */
  later(what: string, task: () => Promise<unknown>, fields?: Record<string, unknown>): void;
  idle(): Promise<void>;
}

export function createContext(deps: PaymentDeps): PaymentContext {
  const inFlight = new Set<Promise<unknown>>();
  return {
    ...deps,
    requests: paymentRequests(deps.store),
    payments: payments(deps.store),
    isLive: requestModes(deps.bus.js),
    publish: deps.outbox.publishOrLeave,
    later(what, task, fields = {}) {
      const running: Promise<unknown> = task()
        .catch((error: unknown) => {
          deps.logger.warn(
            { ...fields, error: safeError(error) },
            `${what} failed; the recovery sweep retries`,
          );
        })
        .finally(() => inFlight.delete(running));
      inFlight.add(running);
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * An error as it may be logged: a payment processor's errors carry the raw response, so only the
 * fields that explain the failure are kept.
 */
export function safeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const e = error as Error & {
    type?: unknown;
    code?: unknown;
    statusCode?: unknown;
    requestId?: unknown;
  };
  return {
    type: e.type ?? e.name,
    message: e.message,
    ...(e.code === undefined ? {} : { code: e.code }),
    ...(e.statusCode === undefined ? {} : { status: e.statusCode }),
    ...(e.requestId === undefined ? {} : { provider_request_id: e.requestId }),
  };
}
