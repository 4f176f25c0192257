import { afterAll, describe, expect, it } from '@jest/globals';
import {
  activeTraceHeaders,
  spanContextOf,
  startTelemetry,
  stopTelemetry,
  traceContextOf,
  tracesRecorded,
  withinContext,
  withSpan,
  type TelemetryConfig,
} from '../src/index.ts';

type Processor = NonNullable<TelemetryConfig['spanProcessors']>[number];
type Ended = Parameters<Processor['onEnd']>[0];

/** Keeps every span that ends, as the SDK hands it to its processors. */
function recorder(): { processor: Processor; ended: Ended[] } {
  const ended: Ended[] = [];
  const processor: Processor = {
    onStart() {},
    onEnd(span) {
      ended.push(span);
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  return { processor, ended };
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('while no span is recorded', () => {
  it('keeps no trace context with later work, even inside a span', async () => {
    expect(tracesRecorded()).toBe(false);
    await withSpan('unrecorded', {}, () => {
      expect(activeTraceHeaders()).toBeUndefined();
      return Promise.resolve();
    });
  });
});

describe('trace context kept for later work', () => {
  const { processor, ended } = recorder();
  afterAll(() => stopTelemetry());

  it('carries a span to work done later, which becomes its child and may link to it', async () => {
    startTelemetry({ service: 'telemetry-test', version: '0', spanProcessors: [processor] });
    expect(tracesRecorded()).toBe(true);
    expect(activeTraceHeaders()).toBeUndefined();

    const kept = await withSpan('write', {}, () => Promise.resolve(activeTraceHeaders()));
    const write = ended.find((span) => span.name === 'write');
    const match = TRACEPARENT.exec(kept?.traceparent ?? '');
    expect(match?.[1]).toBe(write?.spanContext().traceId);
    expect(match?.[2]).toBe(write?.spanContext().spanId);

    // Later, with another span active: the kept context decides, not the active one.
    await withSpan('unrelated', {}, async () => {
      const origin = traceContextOf(kept?.traceparent);
      const linked = spanContextOf(origin);
      await withSpan('later', { parent: origin, ...(linked ? { links: [linked] } : {}) }, () =>
        Promise.resolve(),
      );
    });
    const later = ended.find((span) => span.name === 'later');
    expect(later?.spanContext().traceId).toBe(write?.spanContext().traceId);
    expect(later?.parentSpanContext?.spanId).toBe(write?.spanContext().spanId);
    expect(later?.links.map((link) => link.context.spanId)).toEqual([write?.spanContext().spanId]);
  });

  it('starts a trace of its own for work that kept no context, whatever is active', async () => {
    let outer: string | undefined;
    await withSpan('active', {}, async (span) => {
      outer = span.spanContext().traceId;
      await withinContext(traceContextOf(undefined), () =>
        withSpan('detached', {}, () => Promise.resolve()),
      );
    });
    const detached = ended.find((span) => span.name === 'detached');
    expect(detached?.spanContext().traceId).not.toBe(outer);
    expect(detached?.parentSpanContext).toBeUndefined();
  });
});
