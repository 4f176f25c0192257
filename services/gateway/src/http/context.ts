import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { extractTraceContext, startSpan, type Logger } from '@handoff/observability';
import { trace } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { UNMATCHED_ROUTE } from './metrics.ts';

const INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The first middleware: gives the call its `Request-Id` (a caller's well-formed id is kept),
 * opens the server span joined to any incoming `traceparent`, and logs the outcome once. The span
 * is named as OpenTelemetry's HTTP conventions say: `{method} {route template}` with
 * `http.route`, the template the metrics take (`routeTaken`), never the raw path (it holds ids);
 * the method alone for a call no route took.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get('request-id');
    const callId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    res.locals.callId = callId;
    res.setHeader('Request-Id', callId);

    const parent = extractTraceContext((key) => req.get(key));
    context.with(parent, () => {
      const span = startSpan(req.method, SpanKind.SERVER, {
        'http.request.method': req.method,
        'url.path': req.path,
        'url.scheme': req.protocol,
      });
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const route: unknown = res.locals.httpRoute;
        if (typeof route === 'string' && route !== UNMATCHED_ROUTE) {
          span.updateName(`${req.method} ${route}`);
          span.setAttribute('http.route', route);
        }
        span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        context.with(trace.setSpan(context.active(), span), () => {
          logger.info(
            {
              call_id: callId,
              method: req.method,
              path: req.path,
              status: res.statusCode,
              duration_ms: Math.round(durationMs * 10) / 10,
            },
            'request',
          );
        });
        span.end();
      });
      context.with(trace.setSpan(context.active(), span), () => next());
    });
  };
}
