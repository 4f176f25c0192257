import { BUS_HEADERS, type ByteOperation, type Operation } from '@handoff/contracts';
import { extractTraceContext, SpanKind, withSpan, type Logger } from '@handoff/observability';
import { Svcm, type Service, type ServiceMsg } from '@nats-io/services';
import type { NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';
import { BusError } from './errors.ts';
import { processTiming, type SubjectTiming } from './metrics.ts';
import { withOperation } from './operation.ts';

export interface HandlerContext {
  /**
   * The call id: the `Request-Id` of the HTTP call that caused this message, from the message's
   * header; null when no call did (a sweep, a consumer, a tool). Audit entries keep it.
   */
  callId: string | null;
  logger: Logger;
}

export interface Endpoint<S extends z.ZodType = z.ZodType> {
  input: S;
  /**
   * A byte operation's endpoint: the input comes from the `Handoff-Input` header, the body is
   * handed to `handle` as bytes, and a reply of bytes is sent as it is (see `callBytes`).
   */
  bytes?: true;
  handle(input: z.output<S>, ctx: HandlerContext, data: Uint8Array): Promise<unknown>;
}

/** Implements a declared operation; spread the result into `serve()`'s endpoints. */
export function implement<I extends z.ZodType, O extends z.ZodType>(
  op: Operation<I, O>,
  handle: (input: z.output<I>, ctx: HandlerContext) => Promise<z.input<O>>,
): Record<string, Endpoint> {
  return { [op.name]: endpoint(op.input, handle) };
}

/** Implements a byte operation: `data` is the message's body, and returned bytes are the reply. */
export function implementBytes<I extends z.ZodType>(
  op: ByteOperation<I>,
  handle: (input: z.output<I>, data: Uint8Array, ctx: HandlerContext) => Promise<Uint8Array>,
): Record<string, Endpoint> {
  const definition: Endpoint<I> = {
    input: op.input,
    bytes: true,
    handle: (input, ctx, data) => handle(input, data, ctx),
  };
  return { [op.name]: definition };
}

/** Declares an endpoint with its input inferred from the schema. */
export function endpoint<S extends z.ZodType>(
  input: S,
  handle: (input: z.output<S>, ctx: HandlerContext) => Promise<unknown>,
): Endpoint<S> {
  return { input, handle };
}

/** A part of a service's endpoints, made from what its handlers share. */
export type EndpointGroup<C> = (ctx: C) => Record<string, Endpoint>;

/**
 * The endpoints of several groups as one table for `serve()`. An operation that two groups
 * implement is refused here, at start, where spreading the tables would let one silently win.
 */
export function endpointsOf<C>(
  ctx: C,
  groups: readonly EndpointGroup<C>[],
): Record<string, Endpoint> {
  const table: Record<string, Endpoint> = {};
  for (const group of groups) {
    for (const [name, implementation] of Object.entries(group(ctx))) {
      if (Object.hasOwn(table, name)) throw new Error(`${name} is implemented twice`);
      table[name] = implementation;
    }
  }
  return table;
}

export interface ServeOptions {
  /** NATS micro service name, e.g. `handoff-intake`. */
  name: string;
  version: string;
  description: string;
  /** Subject prefix of the group, e.g. `handoff.intake`; endpoints become `<group>.<operation>`. */
  group: string;
  endpoints: Record<string, Endpoint>;
  logger: Logger;
}

export interface Served {
  service: Service;
  /** Stops taking requests and waits for the ones in flight. */
  stop(): Promise<void>;
  inFlight(): number;
}

/**
 * Serves `endpoints` as a NATS micro service in the default queue group, so any number of
 * replicas share the load. Each request runs in a span joined to the caller's trace, with a
 * logger that carries the caller's request id.
 */
export async function serve(nc: NatsConnection, options: ServeOptions): Promise<Served> {
  const service = await new Svcm(nc).add({
    name: options.name,
    version: options.version,
    description: options.description,
  });
  const group = service.addGroup(options.group);
  const running = new Set<Promise<void>>();

  for (const [operation, definition] of Object.entries(options.endpoints)) {
    const subject = `${options.group}.${operation}`;
    const target = { subject, timing: processTiming(subject) };
    // Micro endpoint names allow only [-\w]; the subject (relative to the group) keeps its dots.
    group.addEndpoint(operation.replace(/\./g, '_'), {
      subject: operation,
      handler: (error, msg) => {
        if (error) {
          options.logger.error({ err: error, subject }, 'endpoint subscription failed');
          return;
        }
        const task = handle(msg, target, definition, options.logger);
        running.add(task);
        void task.finally(() => running.delete(task));
      },
    });
  }

  // The subscriptions must be registered at the server before the service says it is up;
  // otherwise a request sent right then from another connection finds no responders.
  await nc.flush();

  return {
    service,
    inFlight: () => running.size,
    async stop() {
      await service.stop();
      await Promise.allSettled([...running]);
    },
  };
}

async function handle(
  msg: ServiceMsg,
  { subject, timing }: { subject: string; timing: SubjectTiming },
  definition: Endpoint,
  baseLogger: Logger,
): Promise<void> {
  const started = performance.now();
  const callId = msg.headers?.get(BUS_HEADERS.callId) || null;
  const operation = msg.headers?.get(BUS_HEADERS.operation) || null;
  const parent = extractTraceContext((key) => msg.headers?.get(key) || undefined);
  await withSpan(
    `${subject} process`,
    {
      kind: SpanKind.SERVER,
      parent,
      attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
    },
    async () => {
      const logger = baseLogger.child(callId ? { call_id: callId, subject } : { subject });
      try {
        const parsed = definition.input.safeParse(
          definition.bytes ? decodeInputHeader(msg) : decode(msg),
        );
        if (!parsed.success) {
          throw new BusError(
            'validation_failed',
            parsed.error.issues.map((i) => i.message).join('; '),
          );
        }
        const result = await withOperation(operation, () =>
          definition.handle(parsed.data, { callId, logger }, msg.data),
        );
        msg.respond(result instanceof Uint8Array ? result : JSON.stringify(result ?? null));
        timing.succeeded(started);
      } catch (error) {
        const failure =
          error instanceof BusError ? error : new BusError('internal_error', 'internal error');
        timing.failed(started, failure);
        if (failure.code === 'internal_error') logger.error({ err: error }, 'bus handler failed');
        msg.respondError(
          failure.status,
          `${failure.code}: ${failure.message}`,
          failure.details ? JSON.stringify(failure.details) : undefined,
        );
      }
    },
  );
}

function decodeInputHeader(msg: ServiceMsg): unknown {
  const text = msg.headers?.get(BUS_HEADERS.input);
  if (!text) throw new BusError('validation_failed', `no ${BUS_HEADERS.input} header`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BusError('validation_failed', `${BUS_HEADERS.input} is not JSON`);
  }
}

function decode(msg: ServiceMsg): unknown {
  if (msg.data.length === 0) return null;
  try {
    return msg.json();
  } catch {
    throw new BusError('validation_failed', 'payload is not JSON');
  }
}
