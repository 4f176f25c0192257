import { BUS_HEADERS, type ByteOperation, type Operation } from '@handoff/contracts';
import { injectTraceContext, SpanKind, withSpan } from '@handoff/observability';
import { ServiceError } from '@nats-io/services';
import { errors, headers, type NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';
import { BusError } from './errors.ts';
import { requestTiming } from './metrics.ts';

export interface SubjectCallOptions<S extends z.ZodType> {
  timeoutMs: number;
  /** The call id (the HTTP call's `Request-Id`) the message carries in its `Request-Id` header. */
  callId?: string;
  /** The operation the call carries out (`Handoff-Operation`), the same on each retry of it. */
  operation?: string;
  /** Validates the reply; a reply that does not match is an internal error, not data. */
  reply: S;
}

/**
 * A bus call on a bare subject (a NATS request-reply): sends JSON on `subject` and waits for one
 * reply, checked against `options.reply`. A declared operation is called with {@link call}. The call id and trace context
 * travel in headers. No responder and timeouts become retryable `service_unavailable` errors.
 */
export async function callSubject<S extends z.ZodType>(
  nc: NatsConnection,
  subject: string,
  payload: unknown,
  options: SubjectCallOptions<S>,
): Promise<z.output<S>> {
  return withSpan(
    `${subject} request`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
    },
    async () => {
      const timing = requestTiming(subject);
      const started = performance.now();
      try {
        const h = headers();
        if (options.callId) h.set(BUS_HEADERS.callId, options.callId);
        if (options.operation) h.set(BUS_HEADERS.operation, options.operation);
        injectTraceContext((key, value) => h.set(key, value));
        let msg;
        try {
          msg = await nc.request(subject, JSON.stringify(payload ?? null), {
            timeout: options.timeoutMs,
            headers: h,
          });
        } catch (error) {
          throw new BusError(
            'service_unavailable',
            `${subject}: ${describeRequestFailure(error)}`,
            { cause: error },
          );
        }
        const failure = ServiceError.toServiceError(msg);
        if (failure) {
          throw BusError.fromReply(failure.code, failure.message, errorDetails(msg.data));
        }
        const parsed = options.reply.safeParse(msg.json());
        if (!parsed.success) {
          throw new BusError('internal_error', `${subject}: reply does not match its schema`);
        }
        timing.succeeded(started);
        return parsed.data;
      } catch (error) {
        timing.failed(started, error);
        throw error;
      }
    },
  );
}

/** Calls a declared operation: its subject, its input type, its reply schema. */
export function call<I extends z.ZodType, O extends z.ZodType>(
  nc: NatsConnection,
  op: Operation<I, O>,
  input: z.input<I>,
  options: { timeoutMs: number; callId?: string; operation?: string },
): Promise<z.output<O>> {
  return callSubject(nc, op.subject, input, { ...options, reply: op.output });
}

/**
 * Calls a byte operation (`ByteOperation`): its input travels as JSON in the `Handoff-Input`
 * header and `data` as the message's body, so a file's chunk crosses the bus as it is, with no
 * JSON or base64 around it. Answers the reply's bytes.
 */
export async function callBytes<I extends z.ZodType>(
  nc: NatsConnection,
  op: ByteOperation<I>,
  input: z.input<I>,
  data: Uint8Array | undefined,
  options: { timeoutMs: number; callId?: string; operation?: string },
): Promise<Uint8Array> {
  return withSpan(
    `${op.subject} request`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'messaging.system': 'nats', 'messaging.destination.name': op.subject },
    },
    async () => {
      const timing = requestTiming(op.subject);
      const started = performance.now();
      try {
        const h = headers();
        if (options.callId) h.set(BUS_HEADERS.callId, options.callId);
        if (options.operation) h.set(BUS_HEADERS.operation, options.operation);
        h.set(BUS_HEADERS.input, JSON.stringify(input));
        injectTraceContext((key, value) => h.set(key, value));
        let msg;
        try {
          msg = await nc.request(op.subject, data ?? new Uint8Array(0), {
            timeout: options.timeoutMs,
            headers: h,
          });
        } catch (error) {
          throw new BusError(
            'service_unavailable',
            `${op.subject}: ${describeRequestFailure(error)}`,
            { cause: error },
          );
        }
        const failure = ServiceError.toServiceError(msg);
        if (failure) {
          throw BusError.fromReply(failure.code, failure.message, errorDetails(msg.data));
        }
        timing.succeeded(started);
        return msg.data;
      } catch (error) {
        timing.failed(started, error);
        throw error;
      }
    },
  );
}

function errorDetails(data: Uint8Array): Record<string, unknown> | undefined {
  if (data.length === 0) return undefined;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(data));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function describeRequestFailure(error: unknown): string {
  // nats.js wraps a no-responders status in a RequestError (as its cause) on a muxed request.
  if (error instanceof errors.NoRespondersError) return 'no responders';
  if (error instanceof errors.RequestError && error.isNoResponders()) return 'no responders';
  if (error instanceof errors.TimeoutError) return 'timed out';
  return String(error);
}
