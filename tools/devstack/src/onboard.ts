// `npm run onboard -w @handoff/devstack`: onboards an agent with every scope on a running dev
// stack, over HTTP only (apply, approve as staff, claim the key), and prints what a tool such as
// scripts/schemathesis.sh needs, as exported shell variables:
//   export HANDOFF_URL=http://127.0.0.1:8080
//   export HANDOFF_AGENT_KEY=hk_live_...
//   export HANDOFF_TEST_KEY=hk_test_...        (the same integration's test key: test mode)
//   export HANDOFF_PROVIDER_KEY=hpk_live_...   (a provider staff onboarded, for the provider API)
//   export STAFF_TOKEN=eyJ...
// The stack is the one whose DATA_DIR is given (its stack.json and development staff secret).
// `eval "$(DATA_DIR=... node tools/devstack/src/onboard.ts)"` sets them in a shell, exported, so
// that an agent started from that shell sees them too. The agent
// is saved in DATA_DIR/dev-agent.json and reused while its keys work; `--new` makes another.
// `handoff onboard` (src/cli.ts) is the same with --help and options.
import { loadEnv } from '@handoff/config';
import { SCOPES } from '@handoff/contracts';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { callJson, issueTestKey, onboardAgent, stringField } from './gateway-client.ts';
import { readStaffSecret, signStaffToken } from './staff-token.ts';
import { REPO_ROOT, type StackState } from './stack.ts';

export interface Onboarded {
  gateway_url: string;
  api_key: string;
  /** The integration's test key (`hk_test_…`): test data only, answered by the simulated provider. */
  test_key: string;
  key_id: string;
  integration_id: string;
  application_id: string;
  scopes: readonly string[];
  staff_token: string;
  provider_id: string;
  provider_key: string;
}

export { signStaffToken };

/** Where `onboardOnce` keeps the development agent of a data dir. */
export const SAVED_AGENT_FILE = 'dev-agent.json';

export interface OnboardOptions {
  /** The running stack's data dir: `stack.json` and `dev-staff-jwt-secret` are read from it. */
  dataDir: string;
  /** The staff JWT secret when the stack was given one (`STAFF_JWT_SECRET`). */
  staffJwtSecret?: string | undefined;
  /** The application's name, as staff will see it. */
  appName?: string;
  signal?: AbortSignal;
}

/** The gateway URL and the staff secret of the stack running on `dataDir`. */
export function readStack(
  dataDir: string,
  staffJwtSecret?: string,
): { gatewayUrl: string; secret: string } {
  const dir = resolve(dataDir);
  const stateFile = join(dir, 'stack.json');
  if (!existsSync(stateFile)) {
    throw new Error(`no ${stateFile}: is the stack running with DATA_DIR=${dir}?`);
  }
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as Partial<StackState>;
  if (typeof state.gateway_url !== 'string' || state.gateway_url === '') {
    throw new Error(`${stateFile} names no gateway_url`);
  }
  return {
    gatewayUrl: state.gateway_url.replace(/\/+$/, ''),
    secret: readStaffSecret(dir, staffJwtSecret),
  };
}

/**
 * `POST /v1/access-applications` (public) asking for every scope, `POST
 * /v1/staff/access-applications/{id}/approve` (staff) granting them all, `POST
 * /v1/access-applications/{id}/api-key` (the application secret), then `GET /v1/me` with the new
 * key. Throws, naming the step, the status and the answer, when a step does not answer as
 * documented.
 */
export async function onboard(options: OnboardOptions): Promise<Onboarded> {
  const { gatewayUrl, secret } = readStack(options.dataDir, options.staffJwtSecret);
  const staffToken = await signStaffToken(secret);
  const agent = await onboardAgent({
    gatewayUrl,
    staffToken,
    scopes: [...SCOPES],
    appName: options.appName ?? 'Devstack agent',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const testKey = await issueTestKey(
    { gatewayUrl, staffToken, ...(options.signal ? { signal: options.signal } : {}) },
    agent.integration_id,
  );
  const provider = await onboardProvider(gatewayUrl, staffToken, options.signal);
  return {
    gateway_url: gatewayUrl,
    ...agent,
    test_key: testKey,
    staff_token: staffToken,
    ...provider,
  };
}

/**
 * The development agent of `dataDir`: the one saved in `<dataDir>/dev-agent.json` when its agent
 * and provider keys still work (`GET /v1/me`, `GET /v1/provider/me`), else a new one, saved there.
 * `fresh` onboards a new one in any case. `reused` tells which happened.
 */
export async function onboardOnce(
  options: OnboardOptions & { fresh?: boolean },
): Promise<Onboarded & { reused: boolean }> {
  const dir = resolve(options.dataDir);
  const file = join(dir, SAVED_AGENT_FILE);
  if (!options.fresh && existsSync(file)) {
    const { gatewayUrl, secret } = readStack(dir, options.staffJwtSecret);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<Onboarded>;
    if (
      typeof saved.api_key === 'string' &&
      typeof saved.test_key === 'string' &&
      typeof saved.provider_key === 'string' &&
      (await answers(`${gatewayUrl}/v1/me`, saved.test_key, options.signal)) &&
      (await answers(`${gatewayUrl}/v1/me`, saved.api_key, options.signal)) &&
      (await answers(`${gatewayUrl}/v1/provider/me`, saved.provider_key, options.signal))
    ) {
      return {
        ...(saved as Onboarded),
        gateway_url: gatewayUrl,
        staff_token: await signStaffToken(secret),
        reused: true,
      };
    }
  }
  const onboarded = await onboard(options);
  // The staff token is minted afresh on every call, never kept.
  const kept: Partial<Onboarded> = { ...onboarded };
  delete kept.staff_token;
  writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
  return { ...onboarded, reused: false };
}

/** Whether a key is still accepted: 200 from a `me` route. */
async function answers(url: string, key: string, signal: AbortSignal | undefined) {
  const timeout = AbortSignal.timeout(10_000);
  const res = await fetch(url, {
    headers: { Authorization: `Bearer ${key}` },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  await res.body?.cancel();
  return res.status === 200;
}

/** `POST /v1/staff/providers`, then `POST /v1/staff/providers/{id}/keys`, as staff. */
async function onboardProvider(
  gatewayUrl: string,
  staffToken: string,
  signal: AbortSignal | undefined,
): Promise<{ provider_id: string; provider_key: string }> {
  const headers = { Authorization: `Bearer ${staffToken}` };
  const provider = await callJson(
    'create a provider',
    `${gatewayUrl}/v1/staff/providers`,
    {
      method: 'POST',
      headers,
      body: {
        name: 'Devstack provider',
        email: 'provider@example.com',
        categories: ['web-development', 'home-services'],
      },
      expect: 201,
    },
    signal,
  );
  const providerId = stringField('create a provider', provider, 'id');
  const key = await callJson(
    'issue a provider key',
    `${gatewayUrl}/v1/staff/providers/${encodeURIComponent(providerId)}/keys`,
    { method: 'POST', headers, body: {}, expect: 201 },
    signal,
  );
  return {
    provider_id: providerId,
    provider_key: stringField('issue a provider key', key, 'api_key'),
  };
}

/** A value as one shell word: bare when it is plainly safe, else single-quoted. */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_.,:/@%+=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The lines the CLI prints, for `eval` (exported, so that a program started from the shell sees
 * them) or a `.env` file (dotenv and `node --env-file` read the `export` prefix).
 */
export function shellLines(onboarded: Onboarded): string {
  return [
    `HANDOFF_URL=${shellWord(onboarded.gateway_url)}`,
    `HANDOFF_AGENT_KEY=${shellWord(onboarded.api_key)}`,
    `HANDOFF_TEST_KEY=${shellWord(onboarded.test_key)}`,
    `HANDOFF_PROVIDER_KEY=${shellWord(onboarded.provider_key)}`,
    `STAFF_TOKEN=${shellWord(onboarded.staff_token)}`,
  ]
    .map((line) => `export ${line}\n`)
    .join('');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const env = loadEnv(
      'onboard',
      z.object({
        DATA_DIR: z.string().default(join(REPO_ROOT, '.data')),
        STAFF_JWT_SECRET: z.string().optional(),
        APP_NAME: z.string().optional(),
      }),
    );
    const onboarded = await onboardOnce({
      fresh: process.argv.includes('--new'),
      dataDir: env.DATA_DIR,
      staffJwtSecret: env.STAFF_JWT_SECRET,
      ...(env.APP_NAME ? { appName: env.APP_NAME } : {}),
    });
    process.stdout.write(shellLines(onboarded));
  } catch (error) {
    process.stderr.write(`onboard: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
