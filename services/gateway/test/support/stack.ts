import { BACKEND_SERVICES, SCOPES, type BackendService } from '@handoff/contracts';
import { afterAll, beforeAll, expect } from '@jest/globals';
import { bootstrap as conversation } from '@handoff/conversation';
import { bootstrap as intake } from '@handoff/intake';
import { bootstrap as milestones } from '@handoff/milestones';
import { bootstrap as notifications } from '@handoff/notifications';
import type { BaseServiceEnv } from '@handoff/config';
import type { Logger } from '@handoff/observability';
import type { RunningService } from '@handoff/runtime';
import { bootstrap as payments } from '@handoff/payments';
import { bootstrap as testmode } from '@handoff/testmode';
import { natsEnv, uniqueDatabase, serviceEnv } from '@handoff/testkit';
import { bootstrap as dispatcher } from '@handoff/webhook-dispatcher';
import { randomBytes } from 'node:crypto';
import { bootstrap, type RunningGateway } from '../../src/bootstrap.ts';
import { http, onboard, type Answer, type Call, type Onboarded } from './http.ts';
import { signStaffToken } from './staff-tokens.ts';

/**
 * The backend services and a gateway, in this process against the worker's real NATS and
 * MongoDB-wire servers, and the parties that call it: agents for their customers, providers and
 * staff. Each test file starts one with `useStack` and states only what differs.
 */

/** Every scope of the customer's side, and the request scopes an engagement needs. */
export const ENGAGEMENT_SCOPES: string[] = SCOPES.filter(
  (scope) => scope !== 'webhooks:manage' && scope !== 'events:read',
);

type Backend = RunningService<BaseServiceEnv>;
type Env = Record<string, string | undefined>;

const STARTERS: Record<
  BackendService,
  (options: { env: Env; logger?: Logger }) => Promise<Backend>
> = {
  intake,
  conversation,
  payments,
  milestones,
  'webhook-dispatcher': dispatcher,
  notifications,
  testmode,
};

export interface StackOptions {
  /** The backend services to start, in this order; all seven unless a test needs fewer. */
  services?: readonly BackendService[];
  /** Settings of one backend service beyond the defaults (payments: the manual provider). */
  env?: Partial<Record<BackendService, Env>>;
  /** Settings of the gateway beyond the defaults; `undefined` leaves a default out. */
  gateway?: Env;
  /** The NATS settings of each user; the worker's NATS server unless a test brings a cluster. */
  nats?: (user: BackendService | 'gateway') => Env;
  /** One database for every service (they own distinct collections), instead of one each. */
  oneDatabase?: boolean;
  /** The gateway's and each service's log lines go here instead of nowhere. */
  loggers?: Partial<Record<BackendService | 'gateway', Logger>>;
  /** The audience the gateway expects in staff tokens, if any. */
  staffAudience?: string;
}

export interface ProviderAccount {
  id: string;
  name: string;
  key: string;
  keyId: string;
}

export interface OwnedRequest {
  id: string;
  token: string;
}

type PartyCall = Omit<Call, 'token'>;

let providers = 0;

export class Stack {
  readonly label: string;
  readonly options: StackOptions;
  readonly secret = randomBytes(32).toString('base64url');
  readonly #backends = new Map<BackendService, Backend>();
  readonly #gateways: RunningGateway[] = [];
  readonly #databases = new Map<BackendService, string>();
  #staff: string | undefined;

  constructor(label: string, options: StackOptions = {}) {
    this.label = label;
    this.options = options;
  }

  /** The first gateway, the one every party calls unless a test names another. */
  get gateway(): RunningGateway {
    const [first] = this.#gateways;
    if (!first) throw new Error(`the ${this.label} stack has no gateway: it starts in beforeAll`);
    return first;
  }

  /** A staff token (HS256, an hour) the gateways accept. */
  get staff(): string {
    if (this.#staff === undefined) throw new Error(`the ${this.label} stack is not started`);
    return this.#staff;
  }

  backend(service: BackendService): Backend {
    const running = this.#backends.get(service);
    if (!running) throw new Error(`${service} is not running in the ${this.label} stack`);
    return running;
  }

  async start(): Promise<this> {
    try {
      for (const service of this.options.services ?? BACKEND_SERVICES) {
        await this.startService(service);
      }
      await this.extraGateway();
      this.#staff = await signStaffToken(this.secret, {
        sub: 'ops@handoff.test',
        expiresInSeconds: 3600,
        ...(this.options.staffAudience ? { audience: this.options.staffAudience } : {}),
      });
      return this;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Starts one backend service (again, after `stopService`: on the same database). */
  async startService(service: BackendService): Promise<Backend> {
    const database = this.options.oneDatabase ? this.label : `${this.label}_${service}`;
    const name = this.#databases.get(service) ?? uniqueDatabase(database);
    this.#databases.set(service, name);
    const logger = this.options.loggers?.[service];
    const started = await STARTERS[service]({
      env: {
        ...serviceEnv(service, name),
        ...this.options.nats?.(service),
        ...(service === 'webhook-dispatcher'
          ? { WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64') }
          : {}),
        ...this.options.env?.[service],
      },
      ...(logger ? { logger } : {}),
    });
    this.#backends.set(service, started);
    return started;
  }

  async stopService(service: BackendService): Promise<void> {
    const running = this.#backends.get(service);
    this.#backends.delete(service);
    await running?.stop();
  }

  /** A further gateway on the same bus (its own caches), stopped with the stack. */
  async extraGateway(
    env: Env = {},
    logger = this.options.loggers?.gateway,
  ): Promise<RunningGateway> {
    const gateway = await bootstrap({
      env: {
        ...this.#nats('gateway'),
        PORT: '0',
        STAFF_JWT_SECRET: this.secret,
        ...(this.options.staffAudience ? { STAFF_JWT_AUDIENCE: this.options.staffAudience } : {}),
        TRUST_PROXY: 'true',
        BUS_TIMEOUT_MS: '3000',
        // Every hit counted, however busy the machine: past RATE_LIMIT_TIMEOUT_MS the limiter
        // fails open by design (its own tests, in ratelimit.test.ts, cover that).
        RATE_LIMIT_TIMEOUT_MS: '30000',
        PUBLIC_RATE_LIMIT_PER_MINUTE: '10000',
        AUTH_FAILURE_LIMIT_PER_MINUTE: '10000',
        RATE_LIMIT_PER_MINUTE: '10000',
        LOG_LEVEL: 'silent',
        ...this.options.gateway,
        ...env,
      },
      ...(logger ? { logger } : {}),
    });
    this.#gateways.push(gateway);
    return gateway;
  }

  async stop(): Promise<void> {
    // Gateways first, so that nothing calls a service that is going away.
    const running = [...this.#gateways.reverse(), ...[...this.#backends.values()].reverse()];
    this.#gateways.length = 0;
    this.#backends.clear();
    for (const service of running) await service.stop().catch(() => undefined);
  }

  #nats(user: BackendService | 'gateway'): Env {
    return this.options.nats?.(user) ?? natsEnv(user);
  }

  /** An agent onboarded over HTTP: application, staff approval, claimed key. */
  agentOf(scopes: string[] = ENGAGEMENT_SCOPES): Promise<Onboarded> {
    return onboard(this.gateway, this.secret, this.options.staffAudience, scopes);
  }

  /**
   * A provider onboarded by staff, with a key. Out of automatic routing (capacity 0) unless
   * `profile` says otherwise: the tests that route by hand are then never raced by the rules'
   * offer (an extra `request.updated`); routing.test.ts makes providers the rules choose.
   */
  async providerOf(
    categories: string[] = ['home-services'],
    profile: Record<string, unknown> = { capacity: 0 },
  ): Promise<ProviderAccount> {
    providers += 1;
    const name = `Provider ${providers} ${randomBytes(3).toString('hex')}`;
    const created = await this.asStaff('/providers', {
      body: { name, email: `provider${providers}@example.com`, categories, ...profile },
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const issued = await this.asStaff(`/providers/${id}/keys`, { method: 'POST' });
    expect(issued.status).toBe(201);
    return { id, name, key: String(issued.body.api_key), keyId: String(issued.body.key_id) };
  }

  async requestOf(agent: Onboarded, body: Record<string, unknown> = {}): Promise<OwnedRequest> {
    const created = await http(this.gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      body: { ...CUSTOMER, ...body },
    });
    expect(created.status).toBe(201);
    return { id: String(created.body.id), token: String(created.body.request_token) };
  }

  /** Staff route the request to these providers (it becomes `routed`). */
  async routeTo(requestId: string, providerIds: string[]): Promise<void> {
    const routed = await this.asStaff(`/requests/${requestId}`, {
      method: 'PATCH',
      body: { status: 'routed', routing: { mode: 'direct', provider_ids: providerIds } },
    });
    expect(routed.status).toBe(200);
  }

  /** A request of the agent's, routed by staff to these providers. */
  async routedRequest(agent: Onboarded, providers: ProviderAccount[]): Promise<OwnedRequest> {
    const request = await this.requestOf(agent);
    await this.routeTo(
      request.id,
      providers.map((provider) => provider.id),
    );
    return request;
  }

  /** The provider's proposal on a request it may see; answers the proposal's id. */
  async propose(
    provider: ProviderAccount,
    requestId: string,
    proposal: Record<string, unknown> = PROPOSAL,
  ): Promise<string> {
    const proposed = await this.asProvider(provider, `/requests/${requestId}/proposals`, {
      body: proposal,
    });
    expect(proposed.status).toBe(201);
    return String(proposed.body.id);
  }

  /** Staff calls that must each be answered with the problem `code` (e.g. unknown ids). */
  async staffRefused(
    status: number,
    code: string,
    calls: readonly (readonly [path: string, call: PartyCall])[],
  ): Promise<void> {
    for (const [path, call] of calls) {
      expect([path, await this.asStaff(path, call)]).toMatchObject([
        path,
        { status, body: { code } },
      ]);
    }
  }

  /** A call as the agent for its customer: the agent key and the request token. */
  asCustomer(
    agent: Onboarded,
    request: OwnedRequest,
    path: string,
    call: PartyCall = {},
  ): Promise<Answer> {
    return http(this.gateway, `/v1/request/${request.id}${path}`, {
      token: agent.key,
      ...call,
      headers: { 'X-Service-Request-Token': request.token, ...call.headers },
    });
  }

  asProvider(provider: ProviderAccount, path: string, call: PartyCall = {}): Promise<Answer> {
    return http(this.gateway, `/v1/provider${path}`, { token: provider.key, ...call });
  }

  asStaff(path: string, call: PartyCall = {}): Promise<Answer> {
    return http(this.gateway, `/v1/staff${path}`, { token: this.staff, ...call });
  }

  /** A request routed to the provider, its proposal accepted: the job and its plan's milestones. */
  async engagement(
    agent: Onboarded,
    provider: ProviderAccount,
    proposal: Record<string, unknown> = PROPOSAL,
  ) {
    const request = await this.routedRequest(agent, [provider]);
    const proposalId = await this.propose(provider, request.id, proposal);
    const accepted = await this.asCustomer(agent, request, `/proposals/${proposalId}/accept`, {
      method: 'POST',
    });
    expect(accepted.status).toBe(200);
    const job = accepted.body.job as { id: string };
    return { request, proposalId, jobId: job.id };
  }
}

/** A stack started now; for a test that must prepare something first in its own beforeAll. */
export const startStack = (label: string, options: StackOptions = {}): Promise<Stack> =>
  new Stack(label, options).start();

/** A stack started before the file's tests and stopped after them. */
export function useStack(label: string, options: StackOptions = {}): Stack {
  const stack = new Stack(label, options);
  beforeAll(() => stack.start());
  afterAll(() => stack.stop());
  return stack;
}

export const CUSTOMER = {
  message: 'Please find me a plumber for a leaking kitchen tap this week.',
  category: 'home-services',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  company: 'Analytical Engines Ltd',
  website: 'https://example.com',
  subject: 'Leaking tap',
  contact_permission: true,
  marketplace_opt_in: false,
  budget_min: 50,
  budget_max: 500,
};

export const PROPOSAL = {
  message: 'I can fix it on Thursday; parts included.',
  amount: 240,
  currency: 'USD',
  estimated_days: 3,
  milestones: [
    { title: 'Diagnose the leak', amount: 40, due_in_days: 2 },
    { title: 'Replace the cartridge', amount: 200, due_in_days: 5 },
  ],
};
