// `TRACING=jaeger npm start`: Jaeger (in memory) beside the other servers, every service's spans
// sent to it, its address in the banner and in stack.json, and nothing left of it after Ctrl-C.
// Without TRACING the services' OTLP settings are the caller's, as before; a bad TRACING is
// refused before anything starts.
import { afterAll, describe, expect, it } from '@jest/globals';
import { ALL_SERVICES, type ServiceName } from '@handoff/contracts';
import { eventually, jaegerClient, type MongoServer, type NatsServer } from '@handoff/testkit';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceEnvironments, type StackServices } from '../src/service-env.ts';
import type { StackState } from '../src/stack.ts';
import {
  freshEnv,
  MAIN,
  runStack,
  STACK_START_BUDGET_MS,
  untilBanner,
  type RunningStack,
} from './support/run-stack.ts';

/** What the test does once the stack is up: a call, and its spans reaching Jaeger. */
const TEST_WORK_MS = 90_000;

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'handoff-tracing-'));
  dirs.push(dir);
  return dir;
};
let stack: RunningStack | undefined;
afterAll(async () => {
  await stack?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A stack's servers as serviceEnvironments needs them, at addresses nothing listens on. */
function stackServices(
  env: Record<string, string | undefined>,
  otlpEndpoint?: string,
): StackServices {
  const stopped = async () => {};
  const nats: NatsServer = {
    url: 'nats://127.0.0.1:1',
    source: 'env',
    description: 'NATS',
    stop: stopped,
    kill: () => {},
    pids: () => [],
  };
  const mongo: MongoServer = {
    url: 'mongodb://127.0.0.1:1',
    source: 'env',
    description: 'MongoDB',
    stop: stopped,
  };
  return {
    options: { env, logLevel: 'info' },
    dataDir: tempDir(),
    secret: 'a-development-secret-of-at-least-32-bytes',
    nats,
    mongo,
    mailSmtpUrl: 'smtp://127.0.0.1:1',
    ...(otlpEndpoint === undefined ? {} : { otlpEndpoint }),
    gatewayPorts: [1],
    healthPorts: new Map<ServiceName, number[]>(ALL_SERVICES.map((name) => [name, [2]])),
  };
}

describe("the services' tracing settings", () => {
  it("without TRACING: the caller's OTLP endpoint, or none, as before", () => {
    const none = serviceEnvironments(stackServices({}));
    const chosen = serviceEnvironments(
      stackServices({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
    );
    for (const name of ALL_SERVICES) {
      expect(none(name).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
      expect(chosen(name).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://collector:4318');
    }
  });

  it("with the stack's Jaeger: every service exports to it, over the caller's endpoint", () => {
    const envOf = serviceEnvironments(
      stackServices(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' },
        'http://127.0.0.1:4318',
      ),
    );
    for (const name of ALL_SERVICES) {
      expect(envOf(name).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://127.0.0.1:4318');
    }
  });

  it("passes the caller's OpenTelemetry settings on to every service, the sampler included", () => {
    const settings = {
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '256',
      OTEL_PROPAGATORS: 'tracecontext',
    };
    const envOf = serviceEnvironments(stackServices({ ...settings, UNRELATED: 'x' }));
    for (const name of ALL_SERVICES) {
      expect(envOf(name)).toMatchObject(settings);
      expect(envOf(name).UNRELATED).toBeUndefined();
    }
  });

  it("with the stack's Jaeger, a traces endpoint of the caller's does not take the spans elsewhere", () => {
    const envOf = serviceEnvironments(
      stackServices(
        { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' },
        'http://127.0.0.1:4318',
      ),
    );
    for (const name of ALL_SERVICES) {
      expect(envOf(name).OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).toBeUndefined();
      expect(envOf(name).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://127.0.0.1:4318');
    }
  });

  it('passes METRICS on to every service', () => {
    const envOf = serviceEnvironments(stackServices({ METRICS: 'off' }));
    for (const name of ALL_SERVICES) expect(envOf(name).METRICS).toBe('off');
    expect(serviceEnvironments(stackServices({}))('gateway').METRICS).toBeUndefined();
  });
});

describe('npm start with TRACING', () => {
  /** `npm start` with `env`, which it refuses: its exit code and output, and whether it made logs. */
  async function refused(env: Record<string, string>) {
    const dataDir = tempDir();
    const child = spawn(process.execPath, [MAIN], {
      env: freshEnv({ DATA_DIR: dataDir, PORT: '0', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.once('close', resolve));
    return { code, output, startedAnything: existsSync(join(dataDir, 'logs')) };
  }

  it('refuses a TRACING it does not know, before starting anything', async () => {
    expect(await refused({ TRACING: 'zipkin' })).toEqual({
      code: 1,
      output:
        '[stack] devstack: invalid environment\n  - TRACING: Invalid input: expected "jaeger"\n',
      startedAnything: false,
    });
  });

  it('refuses a METRICS other than on or off, before starting anything', async () => {
    expect(await refused({ METRICS: 'false' })).toEqual({
      code: 1,
      output:
        '[stack] devstack: invalid environment\n  - METRICS: Invalid option: expected one of "on"|"off"\n',
      startedAnything: false,
    });
  });

  it(
    "TRACING=jaeger starts Jaeger, prints its address, records it in stack.json, and every service's spans reach it",
    async () => {
      const dataDir = tempDir();
      stack = runStack({
        DATA_DIR: dataDir,
        STACK_QUIET: 'true',
        LOG_LEVEL: 'warn',
        TRACING: 'jaeger',
      });
      await untilBanner(stack);
      const state = JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as StackState;
      const jaegerUrl = state.jaeger_url ?? '';
      expect(jaegerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(state.otlp_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(state.otlp_url).not.toBe(jaegerUrl);
      expect(stack.output()).toMatch(
        new RegExp(`^\\[stack\\] +traces +${jaegerUrl.replace(/[.]/g, '\\.')} +\\(Jaeger`, 'm'),
      );
      // Its UI answers at that address.
      expect((await fetch(jaegerUrl)).status).toBe(200);
      // The banner's wait for /readyz already made calls through the gateway to every backend
      // service over the bus; each one's spans arrive once its batch is exported.
      const client = jaegerClient(jaegerUrl);
      const services = await eventually(
        async () => {
          const names = await client.services();
          return ['gateway', 'intake', 'conversation', 'payments'].every((name) =>
            names.includes(name),
          )
            ? names
            : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 500, what: "the services' spans in Jaeger" },
      );
      expect(services).toEqual(expect.arrayContaining(['gateway', 'intake']));

      // Ctrl-C stops Jaeger with the rest.
      expect(await stack.stop()).toBe(0);
      await expect(fetch(`${jaegerUrl}/api/services`)).rejects.toThrow();
    },
    STACK_START_BUDGET_MS + TEST_WORK_MS,
  );
});
