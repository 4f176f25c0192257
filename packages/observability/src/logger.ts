import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths that may carry secrets. pino replaces them before a line is written, so a key, token or
 * secret that reaches a log call by mistake is still never printed.
 */
export const REDACTED_PATHS = [
  'authorization',
  'password',
  'secret',
  'token',
  'api_key',
  'request_token',
  'application_secret',
  '*.authorization',
  '*.Authorization',
  '*.password',
  '*.secret',
  '*.token',
  '*.api_key',
  '*.request_token',
  '*.application_secret',
  '*.headers.authorization',
  '*.headers["x-service-request-token"]',
  '*.headers["x-application-secret"]',
  'headers.authorization',
  'headers["x-service-request-token"]',
  'headers["x-application-secret"]',
  // The payments service's Stripe credentials, should its settings ever reach a log call.
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  '*.STRIPE_SECRET_KEY',
  '*.STRIPE_WEBHOOK_SECRET',
];

export interface LoggerConfig {
  service: string;
  version: string;
  level: string;
  /** Where lines go; stdout when omitted. Tests pass a stream to capture them. */
  destination?: DestinationStream;
}

export function createLogger(config: LoggerConfig): Logger {
  const options: LoggerOptions = {
    level: config.level,
    base: { service: config.service, version: config.version },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
    // Every line written inside a span carries its trace id, so logs and traces join up.
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return config.destination ? pino(options, config.destination) : pino(options);
}
