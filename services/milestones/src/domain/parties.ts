import type { Party } from '@handoff/contracts';

/** Whether `party` may see the document (no existence oracle: one it may not is not found). */
export function partySees(
  party: Party,
  doc: { request_id: string; provider_id: string | null },
): boolean {
  switch (party.role) {
    case 'customer':
      return doc.request_id === party.request_id;
    case 'provider':
      return doc.provider_id === party.provider_id;
    case 'staff':
      return true;
  }
}
