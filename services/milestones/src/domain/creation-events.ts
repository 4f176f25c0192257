import type { EventType, StateMachine } from '@handoff/contracts';
import { domainEvent, type OutboxMessage } from '@handoff/runtime';

/** The messages that announce a new resource: the machine's `created_event`, if it has one. */
export function creationMessages<S extends string, A extends string>(
  machine: StateMachine<S, A, EventType>,
  requestId: string,
  view: Record<string, unknown>,
): OutboxMessage[] {
  return machine.created_event ? [domainEvent(machine.created_event, requestId, view)] : [];
}
