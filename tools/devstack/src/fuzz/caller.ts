import { REQUEST_TOKEN_HEADER } from '@handoff/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { callJson, UnexpectedStatusError } from '../gateway-client.ts';

export type Body = Record<string, unknown>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Who calls: a bearer (agent key, provider key, staff token) and, for a customer, a request token. */
export interface Party {
  bearer: string;
  /** The request token, for the customer's calls on one request. */
  token?: string;
}

/** How long follow-ups of a move (milestones of an accepted plan, a payment) may take. */
export const FOLLOW_UP_TIMEOUT_MS = 30_000;
const RETRIES = 10;

/**
 * The calls a fixture makes on the gateway at `url`. Every one either answers as documented or
 * fails naming it: set-up has no chance in it.
 */
export function fixtureCaller(url: string) {
  /**
   * One call; a 503 (a service slow to answer on a busy machine) is tried again, and a 409 on a
   * later try means the earlier one did it: `recover` then gives its result.
   */
  async function call(
    who: Party,
    method: Method,
    path: string,
    expect: number,
    body?: unknown,
    recover?: () => Promise<Body>,
  ): Promise<Body> {
    const headers: Record<string, string> = { Authorization: `Bearer ${who.bearer}` };
    if (who.token) headers[REQUEST_TOKEN_HEADER] = who.token;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await callJson(
          `${method} ${path}`,
          `${url}${path}`,
          { method, headers, body, expect },
          undefined,
        );
      } catch (error) {
        if (!(error instanceof UnexpectedStatusError) || attempt >= RETRIES) throw error;
        if (error.status === 409 && attempt > 1 && recover) return recover();
        if (error.status !== 503) throw error;
        await sleep(500 * attempt);
      }
    }
  }

  return {
    url,
    call,
    /** The items of a list answer. */
    list: async (who: Party, path: string): Promise<Body[]> =>
      (await call(who, 'GET', path, 200)).data as Body[],
  };
}

export type FixtureCaller = ReturnType<typeof fixtureCaller>;

/** `produce` until it gives a value, for a follow-up that happens after a move answered. */
export async function followUp<T>(what: string, produce: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + FOLLOW_UP_TIMEOUT_MS;
  for (;;) {
    const value = await produce();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not there after 30 s`);
    await sleep(200);
  }
}
