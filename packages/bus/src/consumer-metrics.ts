// JetStream consumer metrics, per durable: what waits for it (read from the server at scrape
// time, so the message path pays nothing for it) and how many messages came again.
import { handoffMeter, type Attributes } from '@handoff/observability';
import type { Consumer, ConsumerInfo, JsMsg } from '@nats-io/jetstream';

type Meter = ReturnType<typeof handoffMeter>;
type Counter = ReturnType<Meter['createCounter']>;

/**
 * Durable names are declared in code, so they make a bounded label; past this many (a caller
 * naming durables from data, or a test run making its own), the rest share one value.
 */
export const MAX_DURABLES = 256;
const OTHER = '_other';
/** A scrape waits this long for a consumer's info, then leaves that durable out of it. */
const INFO_TIMEOUT_MS = 2_000;

/** A durable this process consumes from, and the live consumers of it. */
interface Watched {
  attributes: Attributes;
  consumers: Set<Pick<Consumer, 'info'>>;
}

const watched = new Map<string, Watched>();
let redeliveries: Counter | undefined;
let gaugeMade = false;

/** One durable's measurements, for its consume loop. */
export interface ConsumerWatch {
  /** Counts `msg` when the server has delivered it before (a nak, a lapsed ack wait). */
  delivered(msg: JsMsg): void;
  /**
   * This consumer stops; the durable's pending count is read no more when it was the last (the
   * SDK keeps exporting the last value it read: consumers stop only with their process).
   */
  stop(): void;
}

/**
 * Watches a durable consumer of `stream` while it is consumed: `messaging.consumer.pending`,
 * read from the consumer's info at each scrape, and `messaging.consumer.redeliveries`. Several
 * consumers of one durable in a process (replicas started together in a test) share its series.
 */
export function watchConsumer(
  stream: string,
  durable: string,
  consumer: Pick<Consumer, 'info'>,
): ConsumerWatch {
  ensurePendingGauge();
  const key = `${stream}\u0000${durable}`;
  let entry = watched.get(key);
  if (entry === undefined) {
    entry = { attributes: attributesFor(stream, durable), consumers: new Set() };
    watched.set(key, entry);
  }
  const { attributes, consumers } = entry;
  consumers.add(consumer);
  const counter = (redeliveries ??= handoffMeter().createCounter(
    'messaging.consumer.redeliveries',
    {
      description:
        'Messages a durable consumer was handed again (delivery count above 1): after a nak, ' +
        'a lapsed ack wait, or a job put back until it is due.',
    },
  ));
  // The durable's series exists at 0 from its start, so the first redelivery is an increase.
  counter.add(0, attributes);
  return {
    delivered(msg) {
      if (msg.info.deliveryCount > 1) counter.add(1, attributes);
    },
    stop() {
      consumers.delete(consumer);
    },
  };
}

/** The series of a durable: its own name while fewer than {@link MAX_DURABLES} are known. */
function attributesFor(stream: string, durable: string): Attributes {
  if (watched.size >= MAX_DURABLES) return (otherAttributes ??= seriesOf(OTHER, OTHER));
  return seriesOf(stream, durable);
}

let otherAttributes: Attributes | undefined;

const seriesOf = (stream: string, durable: string): Attributes => ({
  'messaging.system': 'nats',
  'messaging.destination.name': stream,
  'messaging.consumer.group.name': durable,
});

function ensurePendingGauge(): void {
  if (gaugeMade) return;
  gaugeMade = true;
  handoffMeter()
    .createObservableGauge('messaging.consumer.pending', {
      description:
        'Messages waiting for a durable consumer, read from the server at scrape time: those ' +
        'not yet delivered (num_pending) plus those delivered and not yet acknowledged ' +
        '(num_ack_pending: at work, or held back until a retry or their due time).',
    })
    .addCallback(async (result) => {
      const totals = new Map<Attributes, number>();
      await Promise.all(
        [...watched.values()].map(async ({ attributes, consumers }) => {
          const [consumer] = consumers;
          if (consumer === undefined) return;
          const info = await infoWithin(consumer, INFO_TIMEOUT_MS);
          if (info === undefined) return;
          const pending = info.num_pending + info.num_ack_pending;
          totals.set(attributes, (totals.get(attributes) ?? 0) + pending);
        }),
      );
      for (const [attributes, pending] of totals) result.observe(pending, attributes);
    });
}

/** The consumer's info, or nothing when the server does not answer in time (or at all). */
async function infoWithin(
  consumer: Pick<Consumer, 'info'>,
  timeoutMs: number,
): Promise<ConsumerInfo | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([consumer.info(false).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
