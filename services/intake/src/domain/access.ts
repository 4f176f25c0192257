import type { KeySummary } from '@handoff/contracts';

/** An agent or provider key's status: revoked, else expired by `now`, else active. */
export function keyStatus(
  doc: { revoked_at: Date | null; expires_at: Date },
  now = new Date(),
): KeySummary['status'] {
  if (doc.revoked_at) return 'revoked';
  return doc.expires_at <= now ? 'expired' : 'active';
}
