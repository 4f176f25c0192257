import { startTelemetry, type TelemetryConfig } from '@handoff/observability';

type Processor = NonNullable<TelemetryConfig['spanProcessors']>[number];
/** A span as it ended, with its context, parent, attributes and links. */
export type EndedSpan = Parameters<Processor['onEnd']>[0];

/**
 * Starts this test process's telemetry with a processor that keeps every span as it ends (no
 * exporter, no collector), and returns the list it fills. The test stops it with
 * `stopTelemetry()` in its `afterAll`.
 */
export function collectSpans(service: string): EndedSpan[] {
  const ended: EndedSpan[] = [];
  startTelemetry({
    service,
    version: '0',
    spanProcessors: [
      {
        onStart() {},
        onEnd(span) {
          ended.push(span);
        },
        forceFlush: () => Promise.resolve(),
        shutdown: () => Promise.resolve(),
      },
    ],
  });
  return ended;
}
