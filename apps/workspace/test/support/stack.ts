import { SCOPES } from '@handoff/contracts';
import { createHandoffClient, createStaffClient, type StaffClient } from '@handoff/sdk';
import { apply, approveAndClaim, startWebStack, type WebStack } from '@handoff/web-ui/testing';
import { fileURLToPath } from 'node:url';

/** The workspace's build, which the package's test script makes before jest runs. */
export const WORKSPACE_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The backend and a gateway serving the workspace's build at /workspace. */
export interface Stack extends Omit<WebStack, 'staff'> {
  /** The staff API with a staff JWT the gateway accepts. */
  staff: StaffClient;
  /** The staff JWT itself. */
  staffToken: string;
}

export async function startStack(label: string): Promise<Stack> {
  const web = await startWebStack(label, { gateway: { WORKSPACE_DIR: WORKSPACE_DIST } });
  return {
    gateway: web.gateway,
    staff: createStaffClient({ baseUrl: web.gateway.url, token: web.staff }),
    staffToken: web.staff,
    stop: web.stop,
  };
}

/** Every scope the customer's side of an engagement uses. */
const CUSTOMER_SCOPES = SCOPES.filter((scope) => scope !== 'webhooks:manage');

/**
 * An agent with an approved integration and its key, as its developer gets one: it applies,
 * staff approve, the developer claims the key. Answers the agent's SDK client.
 */
export async function agentOf(stack: Stack, name: string) {
  const web = { gateway: stack.gateway, staff: stack.staffToken };
  const application = await apply(web, name, CUSTOMER_SCOPES);
  const { key } = await approveAndClaim(web, application, CUSTOMER_SCOPES);
  return createHandoffClient({ baseUrl: stack.gateway.url, apiKey: key });
}
