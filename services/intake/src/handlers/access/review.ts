// `access.applications.list`, `.get`, `.approve`, `.reject`: staff review applications.
import { implement, type Endpoint } from '@handoff/bus';
import { accessOps, newId } from '@handoff/contracts';
import { paginate } from '@handoff/store';
import { applicationView, type ApplicationDoc } from '../../store/access.ts';
import { findOr404 } from '../../store/single-document.ts';
import type { IntakeContext } from '../context.ts';
import { ensureIntegration, moveApplication } from './applications.ts';
import type { Staff } from './events.ts';

/** Approves or rejects an application, recording who decided and when. */
async function decide(
  ctx: IntakeContext,
  id: string,
  action: 'approve' | 'reject',
  change: Partial<ApplicationDoc>,
  staff: Staff,
) {
  const decided = await moveApplication(ctx, id, action, staff, {
    change: (_before, now) => ({ ...change, decided_at: now, decided_by: staff.actor }),
    // In the application's turn, so a claim cannot find the approval without it.
    ...(action === 'approve'
      ? {
          then: async (approved: ApplicationDoc) => {
            await ensureIntegration(ctx, approved);
          },
        }
      : {}),
  });
  return applicationView(decided);
}

export function reviewEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  const { applications } = ctx.collections;
  return {
    ...implement(accessOps.list, async ({ query }) => {
      const filter = query.status ? { status: query.status } : {};
      const page = await paginate(applications, filter, query);
      return {
        object: 'list' as const,
        data: page.data.map(applicationView),
        has_more: page.has_more,
      };
    }),

    ...implement(accessOps.get, async ({ id }) =>
      applicationView(
        await findOr404(applications, id, 'application_not_found', 'No such access application.'),
      ),
    ),

    ...implement(accessOps.approve, async ({ id, scopes, actor }, { callId: call_id }) =>
      decide(
        ctx,
        id,
        'approve',
        { granted_scopes: scopes, integration_id: newId('int') },
        { actor, call_id },
      ),
    ),

    ...implement(accessOps.reject, async ({ id, reason, actor }, { callId: call_id }) =>
      decide(ctx, id, 'reject', { rejection_reason: reason }, { actor, call_id }),
    ),
  };
}
