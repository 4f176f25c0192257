// The span of one attempt: an HTTP client span (OpenTelemetry's HTTP client conventions) in the
// trace of what made the delivery, so that a webhook call shows under the API call that caused
// its event. Nothing of it is made while traces are not recorded.
import {
  SpanKind,
  SpanStatusCode,
  spanContextOf,
  traceContextOf,
  tracesRecorded,
  withSpan,
  type Attributes,
  type Span,
} from '@handoff/observability';
import type { SendResult } from '../adapters/sender.ts';
import type { DeliveryJob } from '../store/delivery-queue.ts';

/**
 * The attempt's attributes before it is sent. `url.full` is the endpoint's scheme, host and path
 * alone: a query string or user info may hold a receiver's token, and traces are read widely.
 */
export function attemptAttributes(
  job: Pick<DeliveryJob, 'delivery_id' | 'endpoint_id' | 'attempt' | 'event'>,
  url: string,
): Attributes {
  const attributes: Attributes = {
    'http.request.method': 'POST',
    'handoff.event.id': job.event.id,
    'handoff.event.type': job.event.type,
    'handoff.delivery.id': job.delivery_id,
    'handoff.endpoint.id': job.endpoint_id,
    'handoff.attempt': job.attempt,
  };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return attributes;
  }
  const defaultPort = parsed.protocol === 'https:' ? 443 : 80;
  return {
    ...attributes,
    'url.full': `${parsed.protocol}//${parsed.host}${parsed.pathname}`,
    'server.address': parsed.hostname,
    'server.port': parsed.port ? Number(parsed.port) : defaultPort,
  };
}

/**
 * What the answer adds to the span: its status code, the outcome, and as OpenTelemetry has a
 * client span fail (no answer, or a 4xx or 5xx) an `error.type` with few values.
 */
export function answerAttributes(send: Pick<SendResult, 'statusCode' | 'outcome'>): Attributes {
  const { statusCode, outcome } = send;
  const attributes: Attributes = { 'handoff.webhook.outcome': outcome };
  if (statusCode !== null) attributes['http.response.status_code'] = statusCode;
  const errorType = errorTypeOf(send);
  if (errorType) attributes['error.type'] = errorType;
  return attributes;
}

function errorTypeOf({ statusCode, outcome }: Pick<SendResult, 'statusCode' | 'outcome'>) {
  if (statusCode !== null) return statusCode >= 400 ? String(statusCode) : undefined;
  return outcome === 'refused' ? 'target_refused' : 'no_response';
}

/**
 * Runs `send` in the attempt's span: a child of the context the job kept (the handling of its
 * event), and linked to it as well, so that a backend that shows each service's spans apart
 * still leads from the attempt to its origin.
 */
export function inAttemptSpan(
  job: DeliveryJob,
  url: string,
  send: () => Promise<SendResult>,
): Promise<SendResult> {
  if (!tracesRecorded()) return send();
  const parent = traceContextOf(job.traceparent);
  const origin = spanContextOf(parent);
  return withSpan(
    'POST',
    {
      kind: SpanKind.CLIENT,
      parent,
      ...(origin ? { links: [origin] } : {}),
      attributes: attemptAttributes(job, url),
    },
    async (span: Span) => {
      const result = await send();
      const answer = answerAttributes(result);
      span.setAttributes(answer);
      if (answer['error.type'] !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
      return result;
    },
  );
}
