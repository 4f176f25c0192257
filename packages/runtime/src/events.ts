import {
  EVENT_OWNER_HEADER,
  newId,
  subjects,
  type EventEnvelope,
  type AUDITED_SERVICES,
  type EventType,
} from '@handoff/contracts';
import type { Store } from '@handoff/store';
import { auditFromOutbox } from './audit.ts';
import { outboxMessage, payloadOf, type OutboxMessage } from './outbox.ts';
import type { SequenceAllocator } from './sequences.ts';

/**
 * A domain event for `HANDOFF_EVENTS`, ready to be written into the outbox of the document it
 * announces. Its `sequence` is left out: it is allocated when the event is published. `owner`,
 * the integration of the request, travels in a header (`EVENT_OWNER_HEADER`) where the caller
 * has it at hand, so the webhook dispatcher need not ask intake.
 */
export function domainEvent(
  type: EventType,
  requestId: string,
  object: Record<string, unknown>,
  owner?: string,
): OutboxMessage {
  const id = newId('evt');
  // `livemode` and `sequence` are filled in at publish, from the request's sequence entry.
  const payload: Omit<EventEnvelope, 'data' | 'livemode'> & {
    data: Omit<EventEnvelope['data'], 'sequence'>;
  } = {
    id,
    type,
    timestamp: new Date().toISOString(),
    data: { request_id: requestId, object },
  };
  return outboxMessage(
    id,
    subjects.event(type),
    payload,
    undefined,
    owner ? { [EVENT_OWNER_HEADER]: owner } : undefined,
  );
}

/** An outbox `beforePublish` that fills in `data.sequence` of domain events. */
export function withSequence(allocate: SequenceAllocator) {
  return async (message: OutboxMessage): Promise<Record<string, unknown> | undefined> => {
    if (!message.subject.startsWith('handoff.events.')) return undefined;
    const payload = payloadOf(message);
    const data = payload.data as {
      request_id: string;
      sequence?: number;
      object?: { livemode?: unknown };
    };
    if (typeof data.sequence === 'number' && typeof payload.livemode === 'boolean') {
      return undefined;
    }
    const first = message.subject === subjects.event('request.created');
    const { sequence, livemode } = await allocate.withMode(data.request_id, message.id, {
      first,
      // The request's first event says whether it is live; its entry remembers it for the rest.
      ...(first && data.object?.livemode === false ? { livemode: false } : {}),
    });
    return { ...payload, livemode, data: { ...data, sequence } };
  };
}

/**
 * The outbox `beforePublish` of a service whose staff actions are audited and whose domain events
 * carry a `sequence` (intake, payments, milestones): the audit entry a message carries is written
 * first, then the sequence is filled in.
 */
export function auditedSequencedEvents(service: (typeof AUDITED_SERVICES)[number]) {
  return ({ store, sequences }: { store: Store; sequences: SequenceAllocator }) => {
    const sequence = withSequence(sequences);
    const audit = auditFromOutbox(service, store);
    return async (message: OutboxMessage) => {
      await audit(message);
      return sequence(message);
    };
  };
}
