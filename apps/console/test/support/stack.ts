import { http, startWebStack, type WebStack } from '@handoff/web-ui/testing';
import { expect } from '@jest/globals';
import { fileURLToPath } from 'node:url';

/** The console's build, which the package's test script makes before jest runs. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

export type Stack = WebStack;

/** The backend and a gateway serving the console's build at /console. */
export const startStack = (label: string): Promise<Stack> =>
  startWebStack(label, {
    gateway: { CONSOLE_DIR: CONSOLE_DIST },
    dispatcher: { WEBHOOK_RETRY_SCHEDULE: '1,1,1' },
  });

/** A provider staff onboard in the home-services category, with a key. */
export async function providerOf(stack: Stack, name: string, email: string) {
  const created = await http(stack, '/v1/staff/providers', {
    token: stack.staff,
    body: { name, email, categories: ['home-services'] },
  });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const issued = await http(stack, `/v1/staff/providers/${id}/keys`, {
    method: 'POST',
    token: stack.staff,
  });
  expect(issued.status).toBe(201);
  return { id, key: String(issued.body.api_key) };
}
