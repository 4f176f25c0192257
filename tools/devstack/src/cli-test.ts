// `handoff test …`: test mode from the command line, with the integration's test key
// (`hk_test_…`, `handoff onboard` prints it as HANDOFF_TEST_KEY): test requests the simulated
// provider answers, test clocks, and (as staff) deleting an integration's test data.
import { TEST_SCENARIO_SUMMARIES, TEST_SCENARIOS, TestScenario } from '@handoff/contracts';
import {
  call,
  command,
  GATEWAY_OPTIONS,
  gatewayUrl,
  json,
  STAFF_OPTIONS,
  staffCall,
  str,
  UsageError,
  type Command,
  type Io,
  type Values,
} from './cli-kit.ts';
import { HELP } from './cli-help.ts';

const KEY_OPTIONS = [...GATEWAY_OPTIONS, 'key'];

/** The test key the options or the environment name; a live key is refused before any call. */
function testKey(values: Values, io: Io): string {
  const key = str(values, 'key') ?? io.env.HANDOFF_TEST_KEY;
  if (!key) throw new UsageError('needs the test key: --key hk_test_… (or HANDOFF_TEST_KEY)');
  if (!key.startsWith('hk_test_')) {
    throw new UsageError('test commands take a test key (hk_test_…), never a live one');
  }
  return key;
}

/** One call of the agent API with the test key. */
async function asTest(
  values: Values,
  io: Io,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const headers = {
    Authorization: `Bearer ${testKey(values, io)}`,
    ...(method === 'POST' ? { 'Idempotency-Key': crypto.randomUUID() } : {}),
  };
  return call(io, method, `${gatewayUrl(values, io)}${path}`, headers, body);
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `30s`, `15m`, `2h`, `7d` in milliseconds. */
function durationMs(text: string): number {
  const match = /^(\d+)([smhd])$/.exec(text);
  const unit = match?.[2];
  if (!match || unit === undefined) {
    throw new UsageError(`--by takes a duration such as 90m, 2h or 7d, not "${text}"`);
  }
  return Number(match[1]) * (UNITS[unit] ?? 1) * 1000;
}

function timestamp(text: string, option: string): string {
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new UsageError(`--${option} takes an RFC 3339 time`);
  return at.toISOString();
}

const scenarios = command(HELP['test scenarios'], { strings: [] }, async (_parsed, io) => {
  const width = Math.max(...TEST_SCENARIOS.map((name) => name.length));
  for (const name of TEST_SCENARIOS) {
    io.out(`${name.padEnd(width)}  ${TEST_SCENARIO_SUMMARIES[name]}\n`);
  }
});

const request = command(
  HELP['test request'],
  { strings: [...KEY_OPTIONS, 'scenario', 'clock', 'message', 'category'] },
  async ({ values }, io) => {
    const scenario = str(values, 'scenario') ?? 'happy_path';
    if (!TestScenario.safeParse(scenario).success) {
      throw new UsageError(`--scenario is one of ${TEST_SCENARIOS.join(', ')}`);
    }
    const clock = str(values, 'clock');
    const category = str(values, 'category');
    const created = await asTest(values, io, 'POST', '/v1/ai-to-human-request', {
      message: str(values, 'message') ?? `A test request (${scenario}) from the handoff CLI.`,
      test_scenario: scenario,
      ...(clock ? { test_clock: clock } : {}),
      ...(category ? { category } : {}),
    });
    io.out(json(created));
  },
);

const clockCreate = command(
  HELP['test clock'],
  { strings: [...KEY_OPTIONS, 'time', 'name'] },
  async ({ values }, io) => {
    const time = str(values, 'time');
    const name = str(values, 'name');
    const body = {
      ...(time ? { frozen_time: timestamp(time, 'time') } : {}),
      ...(name ? { name } : {}),
    };
    io.out(json(await asTest(values, io, 'POST', '/v1/test-clocks', body)));
  },
);

/** The one CLOCK_ID a clock command takes. */
function clockId(positionals: string[]): string {
  const [id, ...rest] = positionals;
  if (!id || rest.length > 0) throw new UsageError('takes one CLOCK_ID (clk_…)');
  return encodeURIComponent(id);
}

const clockAdvance = command(
  HELP['test clock'],
  { strings: [...KEY_OPTIONS, 'to', 'by'] },
  async ({ values, positionals }, io) => {
    const id = clockId(positionals);
    const to = str(values, 'to');
    const by = str(values, 'by');
    if ((to === undefined) === (by === undefined)) {
      throw new UsageError('clock advance takes --to TIME or --by DURATION');
    }
    let target = to === undefined ? undefined : timestamp(to, 'to');
    if (by !== undefined) {
      const clock = await asTest(values, io, 'GET', `/v1/test-clocks/${id}`);
      const now = Date.parse(String(clock.frozen_time));
      target = new Date(now + durationMs(by)).toISOString();
    }
    const body = { frozen_time: target };
    io.out(json(await asTest(values, io, 'POST', `/v1/test-clocks/${id}/advance`, body)));
  },
);

const clockRead = (method: 'GET' | 'DELETE'): Command =>
  command(HELP['test clock'], { strings: KEY_OPTIONS }, async ({ values, positionals }, io) => {
    io.out(json(await asTest(values, io, method, `/v1/test-clocks/${clockId(positionals)}`)));
  });

const clockList = command(HELP['test clock'], { strings: KEY_OPTIONS }, async ({ values }, io) => {
  io.out(json(await asTest(values, io, 'GET', '/v1/test-clocks')));
});

const purge = command(
  HELP['test purge'],
  { strings: [...STAFF_OPTIONS, 'key', 'integration'] },
  async ({ values }, io) => {
    // The integration the test key belongs to, unless named.
    const integration =
      str(values, 'integration') ??
      String((await asTest(values, io, 'GET', '/v1/me')).integration_id);
    const route = `integrations/${encodeURIComponent(integration)}/test-data`;
    io.out(json(await staffCall(values, io, 'DELETE', route)));
  },
);

const CLOCK_COMMANDS: Record<string, Command> = {
  create: clockCreate,
  advance: clockAdvance,
  get: clockRead('GET'),
  delete: clockRead('DELETE'),
  list: clockList,
};

const clock: Command = async ([name, ...rest], io) => {
  if (name === undefined || name === '--help' || name === '-h') {
    return io.out(`${HELP['test clock']}\n`);
  }
  const run = Object.hasOwn(CLOCK_COMMANDS, name) ? CLOCK_COMMANDS[name] : undefined;
  if (!run) throw new UsageError(`no test clock command "${name}"`);
  return run(rest, io);
};

export const testCommands: Record<string, Command> = { scenarios, request, clock, purge };
