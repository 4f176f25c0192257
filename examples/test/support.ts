// The local stack as `npm start` runs it (tools/devstack), one per test file, and the human
// side of an engagement (staff and a provider) through @handoff/sdk's staff and provider clients.
import { startStack, waitUntilReady, type Stack } from '@handoff/devstack';
import { onboardAgent } from '@handoff/devstack/gateway-client';
import {
  createProviderClient,
  createStaffClient,
  type ProviderClient,
  type StaffClient,
} from '@handoff/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LocalStack {
  base: string;
  staffToken: string;
  /** The services' last lines, for a failing test's message. */
  lines: string[];
  agentKey(scopes: readonly string[], appName: string): Promise<string>;
  /** Staff and a new provider of this stack (`name`), the other side of an engagement. */
  humans(name?: string): Promise<Humans>;
  /** Runs `run`, rethrowing a failure with the services' last lines, so it shows its cause. */
  withServiceLines<T>(run: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/**
 * How long a new stack may take to answer ready. It makes its own PostgreSQL cluster (initdb)
 * and starts eleven processes (NATS, PostgreSQL, FerretDB, Mailpit, the eight services): a few seconds on a quiet machine, and once over a minute in CI on
 * a busy one (the run took half as long again as the ones before it). The wait ends as soon as
 * the stack is ready.
 */
export const STACK_READY_WITHIN_MS = 180_000;
/** A test file's `beforeAll` budget: the stack's start, then a few calls. */
export const STACK_SETUP_MS = STACK_READY_WITHIN_MS + 60_000;

export async function startLocalStack(name: string): Promise<LocalStack> {
  const dataDir = mkdtempSync(join(tmpdir(), `handoff-${name}-`));
  const lines: string[] = [];
  let stack: Stack | undefined;
  try {
    stack = await startStack({
      dataDir,
      port: 0,
      logLevel: 'warn',
      env: { PAYMENT_PROVIDER: 'manual' },
      events: {
        onLine: (service, line) => {
          lines.push(`${service} | ${line}`);
          if (lines.length > 200) lines.shift();
        },
        onStart() {},
        onExit() {},
      },
    });
    const base = stack.state().gateway_url;
    if (!(await waitUntilReady(base, STACK_READY_WITHIN_MS))) {
      throw new Error(
        `the stack did not become ready within ${STACK_READY_WITHIN_MS / 1_000} s; its last lines:\n` +
          lines.slice(-40).join('\n'),
      );
    }
    const staffToken = await stack.staffToken();
    const running = stack;
    return {
      base,
      staffToken,
      lines,
      agentKey: async (scopes, appName) =>
        (await onboardAgent({ gatewayUrl: base, staffToken, scopes, appName })).api_key,
      humans: (providerName) => humans(base, staffToken, providerName),
      withServiceLines: (run) => withLines(lines, run),
      stop: async () => {
        await running.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Staff and one provider, as the other side of an engagement. */
export interface Humans {
  staff: StaffClient;
  provider: ProviderClient;
  providerId: string;
  /** Staff route the request straight to the provider. */
  route(requestId: string): Promise<void>;
  /** The provider writes into the request's conversation. */
  say(requestId: string, message: string): Promise<void>;
}

async function humans(base: string, staffToken: string, name = 'Lovelace Studio'): Promise<Humans> {
  const staff = createStaffClient({ baseUrl: base, token: staffToken });
  const created = await staff.providers.create({
    name,
    email: `${name.split(' ')[0]?.toLowerCase() ?? 'provider'}@providers.example.com`,
    categories: ['web-development'],
  });
  const key = await staff.providers.createKey(created.id);
  const provider = createProviderClient({ baseUrl: base, apiKey: key.api_key });
  return {
    staff,
    provider,
    providerId: created.id,
    route: async (requestId) => {
      await staff.requests.update(requestId, {
        status: 'routed',
        routing: { mode: 'direct', provider_ids: [created.id] },
      });
    },
    say: async (requestId, message) => {
      await provider.requests.sendMessage(requestId, { message });
    },
  };
}

async function withLines<T>(lines: string[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new Error(`${String(error)}\nlast service lines:\n${lines.slice(-40).join('\n')}`, {
      cause: error,
    });
  }
}
