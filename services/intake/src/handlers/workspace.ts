// What serves `workspaceOps`: sign-in links and sessions of the providers' workspace. A link's
// token and a session's cookie value are known here only for the moment it takes to hand them
// over; both are stored as their SHA-256.
import type { IntakeContext } from './context.ts';
import { sessionEndpoints } from './workspace/sessions.ts';
import { signInLinkEndpoints, type SettlingEndpoints } from './workspace/sign-in-links.ts';

export function workspaceEndpoints(ctx: IntakeContext): SettlingEndpoints {
  const signIn = signInLinkEndpoints(ctx);
  return { endpoints: { ...signIn.endpoints, ...sessionEndpoints(ctx) }, settle: signIn.settle };
}
