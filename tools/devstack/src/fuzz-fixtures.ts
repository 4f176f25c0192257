// `node tools/devstack/src/fuzz-fixtures.ts <out-dir>` (DATA_DIR names the running stack):
// onboards an agent and a provider as `onboard.ts` does, then builds, over HTTP only, a real
// resource in the right state for every operation on an id (a request with its token, proposals,
// an accepted job with milestones, deliverables, disputes, payment requests, payments, access
// applications, a second integration and provider for staff to change), and writes for each
// Schemathesis pass (agent, staff, provider) a TOML fragment of `[[operations]]` blocks that fix
// the path parameters (and the request token) of each operation to them. An operation that moves
// a resource once (accept, withdraw, approve, cancel, ...) gets a resource of its own, so no pass
// and no other operation takes it away first. It prints what onboard.ts prints.
//
// Every step either answers as documented or the script fails naming it: set-up has no chance in
// it, so a Schemathesis run fails only from what it finds.
import { loadEnv } from '@handoff/config';
import { REQUEST_TOKEN_HEADER } from '@handoff/contracts';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  agentOperations,
  providerOperations,
  staffOperations,
  type OperationFixture,
} from './fuzz/operations.ts';
import { buildResources } from './fuzz/resources.ts';
import { callJson, stringField } from './gateway-client.ts';
import { onboard, shellLines, type Onboarded } from './onboard.ts';

export type { OperationFixture } from './fuzz/operations.ts';

export interface FuzzFixtures {
  agent: OperationFixture[];
  staff: OperationFixture[];
  provider: OperationFixture[];
  /** The agent operations again, as the integration's test key: on a test request. */
  test: OperationFixture[];
}

/** The fixtures of every pass, on the stack `base` was onboarded on. */
export async function buildFixtures(
  base: Onboarded,
  /** The stack's Mailpit, where the sign-in link of a session for staff to revoke arrives. */
  mailUrl: string,
): Promise<FuzzFixtures> {
  const resources = await buildResources(base, mailUrl);
  const agent = agentOperations(resources);
  return {
    agent,
    provider: providerOperations(resources),
    staff: staffOperations(resources),
    test: await testModeOperations(base, agent),
  };
}

/** The operations that close the request they act on: each gets a test request of its own. */
const CLOSING = new Set(['cancelRequest']);

/** A test request whose simulated provider asks a question and waits, so it stays open. */
async function testRequest(base: Onboarded, label: string) {
  const what = `create a test request ${label}`;
  const created = await callJson(
    what,
    `${base.gateway_url}/v1/ai-to-human-request`,
    {
      method: 'POST',
      headers: { Authorization: `Bearer ${base.test_key}` },
      body: { message: `A test request ${label}.`, test_scenario: 'asks_question' },
      expect: 201,
    },
    undefined,
  );
  return {
    id: stringField(what, created, 'id'),
    token: stringField(what, created, 'request_token'),
  };
}

/**
 * The test-key pass's fixtures: a test request, and every agent operation on a request alone
 * fixed to it and its token, but those that close it (cancel), each on a test request of its own.
 */
async function testModeOperations(
  base: Onboarded,
  agent: readonly OperationFixture[],
): Promise<OperationFixture[]> {
  const { id, token } = await testRequest(base, 'for the test-key pass');
  // Two clocks: one to delete, one to read and advance.
  const clock = async (name: string) =>
    stringField(
      'create a test clock',
      await callJson(
        'create a test clock',
        `${base.gateway_url}/v1/test-clocks`,
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${base.test_key}` },
          body: { name: `Fuzz clock ${name}` },
          expect: 201,
        },
        undefined,
      ),
      'id',
    );
  const deleted = await clock('for the delete');
  const kept = await clock('to read and advance');
  const clockOperations: OperationFixture[] = [
    { operationId: 'deleteTestClock', path: { id: deleted } },
    { operationId: 'getTestClock', path: { id: kept } },
    { operationId: 'advanceTestClock', path: { id: kept } },
  ];
  const onRequest = agent
    .filter((fixture) => fixture.requestToken !== undefined)
    .filter((fixture) => Object.keys(fixture.path).join() === 'id');
  const closing: OperationFixture[] = [];
  for (const { operationId } of onRequest.filter((fixture) => CLOSING.has(fixture.operationId))) {
    const own = await testRequest(base, `for ${operationId}`);
    closing.push({ operationId, path: { id: own.id }, requestToken: own.token });
  }
  return [
    ...onRequest
      .filter((fixture) => !CLOSING.has(fixture.operationId))
      .map(({ operationId }) => ({ operationId, path: { id }, requestToken: token })),
    ...closing,
    ...clockOperations,
  ];
}

/**
 * The body members each operation's valid cases must hold, by operationId, for the hooks of
 * scripts/schemathesis.sh (a dotted path; `*` is every item of an array).
 */
export function bodiesJson(fixtures: FuzzFixtures): string {
  const all = [...fixtures.agent, ...fixtures.staff, ...fixtures.provider];
  return `${JSON.stringify(
    Object.fromEntries(
      all.flatMap((fixture) => (fixture.body ? [[fixture.operationId, fixture.body]] : [])),
    ),
    null,
    2,
  )}\n`;
}

/** A TOML basic string. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * `[[operations]]` blocks fixing each operation's path parameters and request token (its body
 * members go to {@link bodiesJson}: Schemathesis's coverage phase does not apply body overrides).
 */
export function operationsToml(fixtures: readonly OperationFixture[]): string {
  return fixtures
    .map((fixture) => {
      const parameters = Object.entries(fixture.path).map(
        ([name, value]) => `${tomlString(`path.${name}`)} = ${tomlString(value)}`,
      );
      if (fixture.requestToken !== undefined) {
        parameters.push(
          `${tomlString(`header.${REQUEST_TOKEN_HEADER}`)} = ${tomlString(fixture.requestToken)}`,
        );
      }
      return [
        '[[operations]]',
        `include-operation-id = ${tomlString(fixture.operationId)}`,
        `parameters = { ${parameters.join(', ')} }`,
        '',
      ].join('\n');
    })
    .join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const out = process.argv[2];
    if (!out) throw new Error('usage: fuzz-fixtures.ts <out-dir>');
    const env = loadEnv(
      'fuzz-fixtures',
      z.object({ DATA_DIR: z.string(), STAFF_JWT_SECRET: z.string().optional() }),
    );
    const onboarded = await onboard({
      dataDir: env.DATA_DIR,
      staffJwtSecret: env.STAFF_JWT_SECRET,
      appName: 'Fuzz agent',
    });
    const state = JSON.parse(readFileSync(join(env.DATA_DIR, 'stack.json'), 'utf8')) as {
      mail_url?: string;
    };
    if (!state.mail_url) throw new Error('the stack has no Mailpit (mail_url in stack.json)');
    const fixtures = await buildFixtures(onboarded, state.mail_url);
    mkdirSync(out, { recursive: true });
    for (const pass of ['agent', 'staff', 'provider', 'test'] as const) {
      writeFileSync(join(out, `${pass}.toml`), operationsToml(fixtures[pass]));
    }
    writeFileSync(join(out, 'bodies.json'), bodiesJson(fixtures));
    process.stdout.write(shellLines(onboarded));
  } catch (error) {
    process.stderr.write(
      `fuzz-fixtures: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
