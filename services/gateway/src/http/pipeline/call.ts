import { call as busCall } from '@handoff/bus';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Response } from 'express';
import type { RequestCache } from '@handoff/runtime';
import type { RequestViews } from '../../views/store.ts';
import type {
  BaseContext,
  Caller,
  CallerOf,
  RawBodyContext,
  RouteContext,
  UploadContext,
  UploadSource,
} from '../route.ts';
import type { Exchange } from './exchange.ts';
import type { Input } from './schema.ts';

export interface CallDeps {
  nc: NatsConnection;
  busTimeoutMs: number;
  /** What this replica knows of requests between their events. */
  requests: RequestCache;
  /** The agents' read model (absent where no bus runs it: the OpenAPI document's routes). */
  views?: RequestViews | undefined;
}

/** What the stages before the handler established about the call. */
export interface Established extends Input {
  caller: Caller;
  /** Present on routes with `rawBody`. */
  rawBody: string | undefined;
  /** Present on routes with `upload`. */
  upload?: UploadSource | undefined;
}

/** The context of any route: the handler's own type narrows it to its access kind and flags. */
export type AnyRouteContext = RouteContext & Partial<RawBodyContext> & Partial<UploadContext>;

/**
 * The handler's context; its bus calls carry the call's request id, its operation and the bus
 * timeout.
 */
export function handlerContext(
  established: Established,
  exchange: Exchange,
  res: Response,
  deps: CallDeps,
  /** The call's operation (`operationOf`, idempotency.ts), when it has an `Idempotency-Key`. */
  operation?: string,
): AnyRouteContext {
  const { callId } = exchange;
  const call: BaseContext['call'] = (op, input) =>
    busCall(deps.nc, op, input, {
      timeoutMs: deps.busTimeoutMs,
      callId,
      ...(operation ? { operation } : {}),
    });
  return {
    params: established.params,
    query: established.query,
    body: established.body,
    callId,
    origin: exchange.origin,
    header: (name) => exchange.header(name),
    call,
    bus: { nc: deps.nc, timeoutMs: deps.busTimeoutMs, callId },
    ...(deps.views ? { views: deps.views } : {}),
    res,
    ...callerFields(established.caller),
    ...(established.rawBody === undefined ? {} : { rawBody: established.rawBody }),
    ...(established.upload === undefined ? {} : { upload: established.upload }),
  };
}

/** The caller as the handler reads it (`ctx.agent`, `ctx.staff`...), without the tag. */
function callerFields(caller: Caller): CallerOf[keyof CallerOf] {
  switch (caller.kind) {
    case 'public':
      return {};
    case 'applicant':
      return { applicationSecret: caller.applicationSecret };
    case 'agent':
      return { agent: caller.agent };
    case 'provider':
      return { provider: caller.provider, ...(caller.session ? { session: caller.session } : {}) };
    case 'workspace':
      return {
        provider: caller.provider,
        session: caller.session,
        sessionToken: caller.sessionToken,
      };
    case 'staff':
      return { staff: caller.staff };
  }
}
