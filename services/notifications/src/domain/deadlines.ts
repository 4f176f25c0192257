// Which deadlines get a reminder: the ones waiting on the provider (a milestone open or with
// changes requested, a dispute open), as the latest event of each object tells.
import type { EventEnvelope } from '@handoff/contracts';

/** An object's latest known state, from its events. */
export interface DeadlineState {
  objectId: string;
  resource: 'milestone' | 'dispute';
  requestId: string;
  providerId: string | null;
  status: string;
  deadlineAt: Date | null;
  title: string | null;
  /** The event's per-request sequence: an older one never replaces a newer state. */
  sequence: number;
  eventId: string;
}

const WAITING_ON_PROVIDER: Record<DeadlineState['resource'], readonly string[]> = {
  milestone: ['open', 'changes_requested'],
  dispute: ['open'],
};

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The state an event announces of a milestone or dispute; null for any other event. */
export function deadlineStateOf(event: EventEnvelope): DeadlineState | null {
  const resource = event.type.startsWith('milestone.')
    ? 'milestone'
    : event.type.startsWith('dispute.')
      ? 'dispute'
      : null;
  if (!resource) return null;
  const object = event.data.object;
  const objectId = str(object.id);
  const status = str(object.status);
  if (!objectId || !status) return null;
  const deadline = str(object.deadline_at);
  const deadlineAt = deadline ? new Date(deadline) : null;
  return {
    objectId,
    resource,
    requestId: event.data.request_id,
    providerId: str(object.provider_id),
    status,
    deadlineAt: deadlineAt && !Number.isNaN(deadlineAt.getTime()) ? deadlineAt : null,
    title: resource === 'milestone' ? str(object.title) : null,
    sequence: event.data.sequence,
    eventId: event.id,
  };
}

/** Whether the state waits on its provider by a deadline, so it gets a reminder. */
export function remindable(
  state: Pick<DeadlineState, 'resource' | 'status' | 'deadlineAt' | 'providerId'>,
): boolean {
  return (
    state.deadlineAt !== null &&
    state.providerId !== null &&
    WAITING_ON_PROVIDER[state.resource].includes(state.status)
  );
}

/** When a deadline's reminder goes: `beforeMs` ahead of it, or at once when that has passed. */
export function reminderDueAt(deadlineAt: Date, beforeMs: number, now: Date): number {
  return Math.max(now.getTime(), deadlineAt.getTime() - beforeMs);
}
