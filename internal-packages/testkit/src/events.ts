import { EVENTS_STREAM } from '@handoff/contracts';
import { jetstream, type JsMsg } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsOptions } from './fixtures.ts';

/** A test's own bus connection, and the domain event feed that `watchEvents` started on it. */
export interface EventWatch {
  nc: NatsConnection;
  /** Stops the feed, waits for the messages it had, then closes the connection. */
  close(): Promise<void>;
}

/**
 * Connects as the test user and hands every domain event of HANDOFF_EVENTS (`handoff.events.>`)
 * to `onEvent` as it arrives, in stream order, from the stream's start.
 */
export async function watchEvents(onEvent: (msg: JsMsg) => void): Promise<EventWatch> {
  const nc = await connect({ ...natsOptions() });
  const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM.name, {
    filter_subjects: ['handoff.events.>'],
  });
  const feed = await consumer.consume();
  const reading = (async () => {
    for await (const msg of feed) onEvent(msg);
  })();
  return {
    nc,
    async close() {
      await feed.close();
      await reading;
      await nc.close();
    },
  };
}

/**
 * The services a test file runs against (`launch` starts them; the `stop` it returns stops them),
 * with the test's own connection watching the domain events (`onEvent`). Started in `beforeAll`,
 * stopped in `afterAll`: the watch first, then the services.
 */
export abstract class ServiceStack<P extends { stop(): Promise<void> }> {
  #running: { parts: P; watch: EventWatch } | undefined;

  /** Named in the error of a use before the start. */
  protected abstract readonly what: string;
  protected abstract launch(): Promise<P>;
  protected abstract onEvent(msg: JsMsg): void;

  protected get parts(): P {
    if (!this.#running) throw new Error(`the ${this.what} starts in beforeAll`);
    return this.#running.parts;
  }

  /** The test's connection, for calls. */
  get nc(): NatsConnection {
    if (!this.#running) throw new Error(`the ${this.what} starts in beforeAll`);
    return this.#running.watch.nc;
  }

  async start(): Promise<this> {
    const parts = await this.launch();
    const watch = await watchEvents((msg) => this.onEvent(msg));
    this.#running = { parts, watch };
    return this;
  }

  async stop(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    if (!running) return;
    await running.watch.close();
    await running.parts.stop();
  }
}
