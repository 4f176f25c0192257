import type { StaffAction } from '@handoff/contracts';
import type { ProviderIdentity } from '../auth/bearer-keys.ts';
import type { StaffIdentity } from '../auth/staff-jwt.ts';

/** Who acts on the engagement, as the services' `party` and audit inputs name them. */

export const customerParty = (requestId: string) => ({
  role: 'customer' as const,
  request_id: requestId,
});

export const providerParty = (ctx: { provider: ProviderIdentity }) => ({
  role: 'provider' as const,
  provider_id: ctx.provider.provider_id,
});

/** Who acted, for the owning service's audit: the staff JWT's `sub`. */
export const staffActor = (ctx: { staff: StaffIdentity }) => ctx.staff.sub;

/**
 * Who acted, for the audit log: the JWT `sub`. The call's id reaches the service as every bus
 * call's does, in the message's call-id header, and the audit entry keeps it from there.
 */
export const audit = (ctx: { staff: StaffIdentity }): StaffAction => ({ actor: staffActor(ctx) });

export const staffParty = (actor: string) => ({ role: 'staff' as const, actor });
