// Routing runs on the bus: every event of a request settles its routing (durable consumer
// `intake-routing` on HANDOFF_EVENTS), and each offer's response window waits in HANDOFF_ROUTING
// until it ends (consumer `intake-routing-lapses`). Nothing polls the stored requests.
import { consumeDurable, messageBody } from '@handoff/bus';
import { ROUTING_STREAM, subjects } from '@handoff/contracts';
import { startEventConsumer, stopInReverse } from '@handoff/runtime';
import type { JsMsg } from '@nats-io/jetstream';
import type { IntakeContext } from '../handlers/context.ts';
import { requestMover } from '../handlers/requests/mover.ts';
import { lapseOffer } from './answers.ts';
import { LAPSE_CONSUMER, LapseJob, lapseQueue } from './lapse-queue.ts';
import { categorySettings } from './settings.ts';
import { settle } from './settle.ts';

export const ROUTING_CONSUMER = 'intake-routing';
export const ROUTING_SUBJECTS = [
  subjects.event('request.created'),
  subjects.event('request.updated'),
];

/** Requests settled at once per replica: each reads its request afresh, so order is not needed. */
const SETTLE_CONCURRENCY = 16;
const LAPSE_CONCURRENCY = 8;

export async function startRouting(
  ctx: IntakeContext,
  replicas: number,
): Promise<() => Promise<void>> {
  const move = requestMover(ctx);
  const lapses = lapseQueue(ctx.bus, replicas);
  await lapses.ensure();
  await lapses.ensureConsumer();
  const deps = { ctx, move, settings: categorySettings(ctx), lapses };

  const stopEvents = await startEventConsumer({
    bus: ctx.bus,
    logger: ctx.logger,
    name: ROUTING_CONSUMER,
    subjects: ROUTING_SUBJECTS,
    concurrency: SETTLE_CONCURRENCY,
    handle: (event, msg) =>
      settle(
        deps,
        event.data.request_id,
        event.type === 'request.created' && msg.info.deliveryCount === 1,
      ),
  });

  const jobOf = (msg: JsMsg) => messageBody(msg, LapseJob, 'a lapse job');
  const stopLapses = await consumeDurable(ctx.bus.js, {
    stream: ROUTING_STREAM.name,
    consumer: LAPSE_CONSUMER,
    concurrency: LAPSE_CONCURRENCY,
    buffered: LAPSE_CONCURRENCY * 4,
    logger: ctx.logger,
    dueInMs: (msg) => jobOf(msg).due_at - Date.now(),
    handle: (msg) => lapseOffer(move, jobOf(msg)),
  });
  return stopInReverse(stopEvents, stopLapses);
}
