// The `handoff` CLI: --help everywhere, and each command against a real stack (npm start's).
import { beforeAll, describe, expect, it } from '@jest/globals';
import { jwtVerify, decodeJwt } from 'jose';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli.ts';
import {
  freshEnv,
  quietStackPerFile,
  REPO_ROOT,
  STACK_START_BUDGET_MS,
} from './support/run-stack.ts';

const stack = quietStackPerFile('handoff-cli-');
const { dataDir } = stack;

/** Runs one command line in-process, with only DATA_DIR (and `env`) in its environment. */
async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    env: { DATA_DIR: dataDir, ...env },
  });
  return { code, stdout, stderr };
}

const secret = () => readFileSync(join(dataDir, 'dev-staff-jwt-secret'), 'utf8').trim();
const stackState = () =>
  JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as {
    gateway_url: string;
    mail_url: string;
  };
const gateway = () => stackState().gateway_url;
const mail = () => stackState().mail_url;

describe('handoff --help', () => {
  it.each([
    [[]],
    [['--help']],
    [['env', '--help']],
    [['onboard', '--help']],
    [['staff-token', '--help']],
    [['staff', '--help']],
    [['staff', 'list', '--help']],
    [['staff', 'decide', '--help']],
    [['staff', 'grant', '--help']],
    [['events', '--help']],
    [['events', 'tail', '--help']],
  ])('%j prints usage and exits 0', async (args) => {
    const { code, stdout, stderr } = await cli(args);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/Usage: handoff/);
  });

  it('refuses an unknown command or option with exit code 2 and a pointer to --help', async () => {
    for (const args of [['nope'], ['env', '--bogus'], ['staff', 'list'], ['staff', 'frobnicate']]) {
      const { code, stderr } = await cli(args);
      expect(code).toBe(2);
      expect(stderr).toContain('handoff --help');
    }
  });

  it('is the `handoff` bin of the workspace, runnable through node_modules/.bin', async () => {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        join(REPO_ROOT, 'node_modules', '.bin', 'handoff'),
        ['staff-token', '--help'],
        { env: freshEnv({}) },
        (error, out) => (error ? reject(error) : resolve(out)),
      ),
    );
    expect(stdout).toContain('Usage: handoff staff-token');
  });

  it('says where no stack runs', async () => {
    const { code, stderr } = await cli(['env'], { DATA_DIR: join(dataDir, 'nowhere') });
    expect(code).toBe(1);
    expect(stderr).toContain('stack.json');
  });
});

describe('handoff against a running stack', () => {
  beforeAll(() => stack.start(), STACK_START_BUDGET_MS);

  it('env prints the export lines of npm start, with a working staff token', async () => {
    const { code, stdout } = await cli(['env']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split('=')[0])).toEqual([
      'export GATEWAY',
      'export MAILPIT',
      'export STAFF',
    ]);
    expect(lines[0]).toBe(`export GATEWAY=${gateway()}`);
    expect(lines[1]).toBe(`export MAILPIT=${mail()}`);
    const token = lines[2]?.replace(/^export STAFF=/, '') ?? '';
    const res = await fetch(`${gateway()}/v1/staff/health`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);

    // Run again in a shell that has a previous stack's lines: it prints this stack's, afresh.
    const again = await cli(['env'], { GATEWAY: 'http://127.0.0.1:1', STAFF: 'stale' });
    expect(again.stdout.split('\n')[0]).toBe(`export GATEWAY=${gateway()}`);
    expect(again.stdout).not.toContain('STAFF=stale');
  });

  it('staff-token mints an HS256 staff JWT from the stack secret or STAFF_JWT_SECRET', async () => {
    const { stdout } = await cli(['staff-token', '--subject', 'ops@example.com', '--ttl', '60']);
    const { payload, protectedHeader } = await jwtVerify(
      stdout.trim(),
      new TextEncoder().encode(secret()),
    );
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ roles: ['staff'], sub: 'ops@example.com' });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);

    const other = 'another-secret-of-at-least-thirty-two-bytes';
    const given = await cli(['staff-token'], { STAFF_JWT_SECRET: other });
    await expect(
      jwtVerify(given.stdout.trim(), new TextEncoder().encode(other)),
    ).resolves.toBeDefined();
    expect(decodeJwt(given.stdout.trim()).exp).toBeGreaterThan(Date.now() / 1000 + 11 * 3600);
  });

  it('onboard reuses the saved agent, and --new makes another', async () => {
    const first = await cli(['onboard', '--json']);
    expect(first.code).toBe(0);
    const agent = JSON.parse(first.stdout) as { api_key: string; reused: boolean };
    expect(agent.reused).toBe(false);
    const again = await cli(['onboard']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`export HANDOFF_AGENT_KEY=${agent.api_key}`);
    expect(again.stderr).toContain('reusing');
    const fresh = JSON.parse((await cli(['onboard', '--new', '--json'])).stdout) as {
      api_key: string;
    };
    expect(fresh.api_key).not.toBe(agent.api_key);
    const me = await fetch(`${gateway()}/v1/me`, {
      headers: { Authorization: `Bearer ${fresh.api_key}` },
    });
    expect(me.status).toBe(200);
  });

  it('staff list, decide and grant: an application from submitted to approved with every scope', async () => {
    const applied = await fetch(`${gateway()}/v1/access-applications`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        app_name: 'CLI test',
        description: 'Applies so that staff decide from the CLI.',
        contact_email: 'cli@example.com',
        requested_scopes: ['requests:create'],
      }),
    });
    const { id } = (await applied.json()) as { id: string };

    const listed = await cli(['staff', 'list', 'applications', '--status', 'submitted']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${id}  submitted  CLI test`, 'm'));

    const noReason = await cli(['staff', 'decide', 'application', id, 'reject']);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');

    const approved = await cli([
      'staff',
      'decide',
      'application',
      id,
      'approve',
      '--scopes',
      'requests:create,requests:read',
    ]);
    expect(approved.code).toBe(0);
    const decision = JSON.parse(approved.stdout) as { status: string; integration_id: string };
    expect(decision.status).toBe('approved');

    const twice = await cli(['staff', 'decide', 'application', id, 'approve', '--scopes', 'all']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('409');

    const granted = await cli(['staff', 'grant', decision.integration_id, '--scopes', 'all']);
    expect(granted.code).toBe(0);
    expect((JSON.parse(granted.stdout) as { scopes: string[] }).scopes).toHaveLength(13);

    const json = await cli(['staff', 'list', 'deadlines', '--json']);
    expect((JSON.parse(json.stdout) as { object: string }).object).toBe('list');
  });

  it('events tail prints a request events, and --follow --until waits for the next one', async () => {
    const agent = JSON.parse((await cli(['onboard', '--json'])).stdout) as { api_key: string };
    const created = await fetch(`${gateway()}/v1/ai-to-human-request`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent.api_key}`, 'Content-Type': 'application/json' },
      // Without a category: automatic routing adds no event of its own to the ones tailed here.
      body: JSON.stringify({ message: 'Tail me.' }),
    });
    const request = (await created.json()) as { id: string; request_token: string };
    const auth = ['--token', request.request_token, '--key', agent.api_key];

    // The event is published a moment after the answer (outbox): wait for it, then read again.
    const first = await cli([
      'events',
      'tail',
      request.id,
      ...auth,
      '--follow',
      '--until',
      'request.created',
    ]);
    expect(first.code).toBe(0);
    const tail = await cli(['events', 'tail', request.id, ...auth]);
    expect(tail.code).toBe(0);
    expect(tail.stdout).toBe(first.stdout);
    const events = tail.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: { sequence: number } });
    expect(events.map((event) => event.type)).toEqual(['request.created']);

    const following = cli([
      'events',
      'tail',
      request.id,
      ...auth,
      '--after',
      String(events[0]?.data.sequence),
      '--follow',
      '--until',
      'message.created',
    ]);
    const message = await fetch(`${gateway()}/v1/request/${request.id}/message`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${agent.api_key}`,
        'X-Service-Request-Token': request.request_token,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ message: 'Are you there?' }),
    });
    expect(message.status).toBe(201);
    const followed = await following;
    expect(followed.code).toBe(0);
    expect(followed.stdout).toContain('"type":"message.created"');
    expect(followed.stdout).not.toContain('"type":"request.created"');
  });
});
