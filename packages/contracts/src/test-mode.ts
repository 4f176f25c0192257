import { z } from 'zod';

/**
 * Test mode (issue 33). An integration's test key (`hk_test_…`) works on test data only: every
 * object it makes carries `livemode: false`, a live key never sees it (404, as another
 * integration's), test requests are answered by the simulated provider and never reach a real
 * provider, a real email or a real payment processor.
 */

/** Test agent keys: `hk_test_` + 30 base62 + 6 base62 of the CRC32 of everything before them. */
export const TEST_API_KEY_PREFIX = 'hk_test_';
export const TEST_API_KEY_PATTERN = /^hk_test_[0-9A-Za-z]{36}$/;

/**
 * What the simulated provider does with a test request, chosen by its `test_scenario` (or, when
 * none is given, by a scenario's name written in the request's message). `docs/test-mode.md`
 * lists the exact events each one produces.
 */
export const TEST_SCENARIOS = [
  'happy_path',
  'asks_question',
  'declines',
  'misses_deadline',
  'requests_changes',
  'disputes',
  'payment_fails',
] as const;
export const TestScenario = z.enum(TEST_SCENARIOS);
export type TestScenario = z.infer<typeof TestScenario>;

/** The scenario of a test request that names none: the whole engagement, every step succeeding. */
export const DEFAULT_TEST_SCENARIO: TestScenario = 'happy_path';

/**
 * The scenario a test request runs: the one it names, else the first scenario name found in its
 * message (`…please run asks_question…`), else {@link DEFAULT_TEST_SCENARIO}.
 */
export function scenarioOf(request: {
  test_scenario?: string | null;
  message: string;
}): TestScenario {
  const named = TestScenario.safeParse(request.test_scenario);
  if (named.success) return named.data;
  const text = request.message.toLowerCase();
  return TEST_SCENARIOS.find((scenario) => text.includes(scenario)) ?? DEFAULT_TEST_SCENARIO;
}

/** The name every surface shows for the simulated provider. */
export const SIMULATED_PROVIDER_NAME = 'Simulated provider (test mode)';

/**
 * The simulated provider: one provider record, the same in every deployment, that test requests
 * are offered to and only test requests. Its id sorts before every real one (time zero).
 */
export const SIMULATED_PROVIDER_ID = 'prv_0000000000000000000000test';
/** Its address, in the `.invalid` domain (RFC 2606), which no mail ever reaches. */
export const SIMULATED_PROVIDER_EMAIL = 'simulated-provider@handoff.invalid';

/**
 * `livemode` of the objects that hang on a request (messages, proposals, milestones, payments…)
 * and of webhook endpoints: every agent answer carries it (the caller's key decides which data it
 * sees, so its mode is the object's); staff and provider answers may leave it out.
 */
export const livemodeField = {
  livemode: z.boolean().optional().meta({
    description:
      'Extension: false for test data (made with a `hk_test_` key). Always present in agent answers.',
  }),
};

/** One line per scenario: what the simulated provider does (docs/test-mode.md has the events). */
export const TEST_SCENARIO_SUMMARIES: Record<TestScenario, string> = {
  happy_path:
    'accepts, writes and proposes; once you accept, delivers and submits a milestone; once you approve, asks for payment (paid at once) and completes the job',
  asks_question: 'accepts and asks a question; proposes once you answer, then as happy_path',
  declines: 'declines the offer; the request then waits for staff, as an unrouted one would',
  misses_deadline:
    'accepts and proposes; once you accept, never submits its milestone, which goes overdue',
  requests_changes: 'as happy_path; when you request changes, delivers again and resubmits',
  disputes: 'as happy_path; when you open a dispute on the submitted milestone, answers it',
  payment_fails: 'as happy_path, but its payment fails (`payment.failed`); one you propose is paid',
};
