import { newId, type StaffAction } from '@handoff/contracts';
import { auditCollection, type AuditRecord } from '@handoff/runtime';
import type { Store } from '@handoff/store';

/**
 * Records a staff action on an integration's webhooks. The dispatcher has no outbox and its
 * actions no domain event, so the entry is written right after the change it describes; a
 * crash between the two loses the entry, never the change. Secrets never enter the log.
 */
export async function auditStaff(
  store: Store,
  staff: StaffAction | undefined,
  /** The call that made staff act (the bus message's call id); null when none did. */
  callId: string | null,
  entry: Omit<AuditRecord, 'actor' | 'call_id' | 'at'>,
): Promise<void> {
  if (!staff) return;
  await auditCollection('webhook-dispatcher', store).insertOne({
    _id: newId('aud'),
    actor: staff.actor,
    call_id: callId,
    at: new Date(),
    ...entry,
  });
}
