import { accessSubjects, newId, type AccessEvent, type AccessEventType } from '@handoff/contracts';
import { outboxMessage, type AuditRecord, type OutboxMessage } from '@handoff/runtime';

/** The staff member behind an access change, and the call it came in. */
export interface Staff {
  actor: string;
  call_id: string | null;
}

/** What the audit entry of a staff change records beside the event's object. */
export interface AccessAuditTarget {
  target_type: string;
  target_id: string;
  before: Record<string, unknown> | null;
}

/**
 * The message of an access event on HANDOFF_ACCESS; a staff change with an `audit` target also
 * writes its audit entry (`access.key.issued` is audited as `key.issued`).
 */
export function accessEvent(
  type: AccessEventType,
  object: Record<string, unknown>,
  staff: Staff | null,
  audit?: AccessAuditTarget,
): OutboxMessage {
  const id = newId('evt');
  const at = new Date();
  const payload: AccessEvent = {
    id,
    type,
    timestamp: at.toISOString(),
    data: { actor: staff?.actor ?? null, object },
  };
  const local =
    staff && audit
      ? {
          audit: {
            actor: staff.actor,
            action: type.replace(/^access\./, ''),
            target_type: audit.target_type,
            target_id: audit.target_id,
            at,
            call_id: staff.call_id,
            before: audit.before,
            after: object,
          } satisfies AuditRecord,
        }
      : undefined;
  return outboxMessage(id, accessSubjects.event(type), payload, local);
}
