import type { AuditRecord, OutboxMessage } from '@handoff/runtime';
import { auditMessage } from '@handoff/runtime';

/**
 * Providers' staff actions are announced on the audit stream (`handoff.audit.intake.provider.*`)
 * with their audit entry. The access stream's event kinds are a closed list for applications,
 * integrations and agent keys, and providers have no domain event kind in the spec, so the audit
 * stream is where staff tools see them, exactly as payments announce a rejected payment request.
 */
export function audited(
  who: { actor: string; callId: string | null },
  action: string,
  target: { type: 'provider' | 'provider_key' | 'provider_session'; id: string },
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
): OutboxMessage {
  const record: AuditRecord = {
    actor: who.actor,
    action,
    target_type: target.type,
    target_id: target.id,
    at: new Date(),
    // The call's Request-Id (the bus carries the HTTP request's), as access actions record it.
    call_id: who.callId,
    before,
    after,
  };
  return auditMessage('intake', action, record);
}
