import { describe, expect, it } from '@jest/globals';
import {
  createLogger,
  parsePrometheusText,
  renderMetrics,
  type PrometheusSample,
} from '@handoff/observability';
import { eventually } from '@handoff/testkit';
import { useJetStream } from './support/jetstream.ts';
import { BusError, consumeDurable, MAX_DURABLES, watchConsumer } from '../src/index.ts';

// A durable consumer's pending messages (read from the server at scrape time) and its
// redeliveries, from a real consumer on a real JetStream, read back as a scrape reads them.
const logger = createLogger({ service: 'consumer-metrics-test', version: '0', level: 'silent' });
const bus = useJetStream('consumer-metrics-test');

async function durable() {
  const { stream, consumer, subject } = await bus.durable('cmetrics', { max_deliver: 5 });
  const labels = {
    messaging_system: 'nats',
    messaging_destination_name: stream,
    messaging_consumer_group_name: consumer,
  };
  return {
    stream,
    consumer,
    labels,
    publish: async (body: string) => (await bus.js.publish(subject, body)).seq,
  };
}

const scrape = async (): Promise<PrometheusSample[]> => parsePrometheusText(await renderMetrics());

const valueOf = (samples: PrometheusSample[], name: string, labels: Record<string, string>) => {
  const found = samples.filter(
    (s) =>
      s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  return found.length === 0 ? undefined : found.reduce((sum, s) => sum + s.value, 0);
};

const ID_LIKE = /[a-z]+_[0-9a-z]{20,}/;

describe('durable consumer metrics', () => {
  it('reports what waits for a durable, unacknowledged or not yet delivered, at each scrape', async () => {
    const d = await durable();
    for (let i = 0; i < 5; i += 1) await d.publish(`m${i}`);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handled: string[] = [];
    bus.stops.push(
      await consumeDurable(bus.js, {
        stream: d.stream,
        consumer: d.consumer,
        concurrency: 1,
        logger,
        handle: async (msg) => {
          await released;
          handled.push(msg.string());
        },
      }),
    );
    // The first message is held by its handler, the rest wait: all five are pending.
    await eventually(async () =>
      handled.length === 0 && valueOf(await scrape(), 'messaging_consumer_pending', d.labels) === 5
        ? true
        : undefined,
    );
    release();
    await eventually(async () =>
      valueOf(await scrape(), 'messaging_consumer_pending', d.labels) === 0 ? true : undefined,
    );
    expect(handled).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    // Nothing came twice: the durable's series is there from its start, at 0.
    expect(valueOf(await scrape(), 'messaging_consumer_redeliveries_total', d.labels)).toBe(0);
  });

  it('counts a message handed back (nak) and delivered again as a redelivery', async () => {
    const d = await durable();
    const deliveries: number[] = [];
    bus.stops.push(
      await consumeDurable(bus.js, {
        stream: d.stream,
        consumer: d.consumer,
        concurrency: 1,
        logger,
        handle: async (msg) => {
          deliveries.push(msg.info.deliveryCount);
          if (msg.string() === 'flaky' && msg.info.deliveryCount < 3)
            throw new BusError('service_unavailable', 'try later');
        },
      }),
    );
    await d.publish('flaky');
    await d.publish('fine');
    // Two naks (2 s, then 4 s), so the third delivery is the one that succeeds.
    await eventually(() => (deliveries.length >= 4 ? true : undefined), { timeoutMs: 20_000 });
    const samples = await scrape();
    expect(deliveries).toEqual([1, 1, 2, 3]);
    expect(valueOf(samples, 'messaging_consumer_redeliveries_total', d.labels)).toBe(2);
    await eventually(async () =>
      valueOf(await scrape(), 'messaging_consumer_pending', d.labels) === 0 ? true : undefined,
    );
  }, 30_000);

  it('keeps ids out of every label', async () => {
    const d = await durable();
    bus.stops.push(
      await consumeDurable(bus.js, {
        stream: d.stream,
        consumer: d.consumer,
        concurrency: 1,
        logger,
        handle: async () => {},
      }),
    );
    const samples = await scrape();
    expect(valueOf(samples, 'messaging_consumer_pending', d.labels)).toBe(0);
    const values = samples
      .filter((s) => s.name.startsWith('messaging_consumer_'))
      .flatMap((s) => Object.values(s.labels));
    expect(values.length).toBeGreaterThan(0);
    expect(values.filter((value) => ID_LIKE.test(value))).toEqual([]);
  });

  // Last: it fills the process's durable labels.
  it(`gives durables past the first ${MAX_DURABLES} one shared series`, async () => {
    const d = await durable();
    const consumer = await bus.js.consumers.get(d.stream, d.consumer);
    await d.publish('waiting');
    const watches = Array.from({ length: MAX_DURABLES + 10 }, (_, i) =>
      watchConsumer(d.stream, `many-${i}`, consumer),
    );
    const samples = await scrape();
    const durables = new Set(
      samples
        .filter((s) => s.name === 'messaging_consumer_pending')
        .map((s) => s.labels.messaging_consumer_group_name),
    );
    expect(durables.size).toBeLessThanOrEqual(MAX_DURABLES + 1);
    // The durables past the cap read the same consumer, one message each: summed as `_other`.
    const other = valueOf(samples, 'messaging_consumer_pending', {
      messaging_destination_name: '_other',
      messaging_consumer_group_name: '_other',
    });
    expect(other).toBeGreaterThanOrEqual(10);
    for (const watch of watches) watch.stop();
  }, 30_000);
});
