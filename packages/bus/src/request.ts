import { BUS_HEADERS } from '@handoff/contracts';
import { injectTraceContext, SpanKind, withSpan } from '@handoff/observability';
import { ServiceError } from '@nats-io/services';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';
import { BusError } from './errors.ts';

export interface RequestOptions<S extends z.ZodType> {
  timeoutMs: number;
  requestId?: string;
  /** Validates the reply; a reply that does not match is an internal error, not data. */
  reply: S;
}

/**
 * Sends a JSON request on `subject` and waits for one reply. The request id and trace context
 * travel in headers. No responder and timeouts become retryable `unavailable` errors.
 */
export async function request<S extends z.ZodType>(
  nc: NatsConnection,
  subject: string,
  payload: unknown,
  options: RequestOptions<S>,
): Promise<z.output<S>> {
  return withSpan(
    `${subject} request`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
    },
    async () => {
      const h = headers();
      if (options.requestId) h.set(BUS_HEADERS.requestId, options.requestId);
      injectTraceContext((key, value) => h.set(key, value));
      let msg;
      try {
        msg = await nc.request(subject, JSON.stringify(payload ?? null), {
          timeout: options.timeoutMs,
          headers: h,
        });
      } catch (error) {
        throw new BusError('unavailable', `${subject}: ${describeRequestFailure(error)}`, {
          cause: error,
        });
      }
      const failure = ServiceError.toServiceError(msg);
      if (failure) throw BusError.fromStatus(failure.code, failure.message);
      const parsed = options.reply.safeParse(msg.json());
      if (!parsed.success) {
        throw new BusError('internal_error', `${subject}: reply does not match its schema`);
      }
      return parsed.data;
    },
  );
}

function describeRequestFailure(error: unknown): string {
  const text = String(error);
  if (/no responders/i.test(text)) return 'no responders';
  if (/timeout/i.test(text)) return 'timed out';
  return text;
}
