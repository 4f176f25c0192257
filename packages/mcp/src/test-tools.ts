import { TEST_SCENARIO_SUMMARIES, TestClockAdvance, TestClockCreate } from '@handoff/contracts';
import type { HandoffClient } from '@handoff/sdk';
import { z } from 'zod';
import type { ToolDefinition } from './tool-definition.ts';

// Test mode's tools, listed only to a test key (`hk_test_…`): an agent under development creates
// a test clock, makes its test requests on it, and advances it to see deadlines fire.

const ClockRef = z.object({ clock_id: z.string().max(64).describe('The clock’s id (`clk_…`).') });

const scenarios = Object.entries(TEST_SCENARIO_SUMMARIES)
  .map(([name, summary]) => `\`${name}\`: ${summary}`)
  .join('; ');

/** What `create_handoff` says of its test fields, with a test key. */
export const TEST_CREATE_NOTE =
  ' Test mode (this key is a test key): the simulated provider answers, never a human. ' +
  `\`test_scenario\` chooses what it does (${scenarios}); \`test_clock\` makes the request on a test clock.`;

export const TEST_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'create_test_clock',
    title: 'Create a test clock',
    description:
      'Test mode: a clock frozen at `frozen_time` (default now). Pass its id as `test_clock` to create_handoff; advance_test_clock then moves the deadlines of those requests as if time had passed.',
    scopes: ['requests:create'],
    operationId: 'createTestClock',
    input: TestClockCreate,
    readOnly: false,
    run: (client: HandoffClient, args) =>
      client.testHelpers.testClocks.create(TestClockCreate.parse(args)),
  },
  {
    name: 'get_test_clock',
    title: 'Read a test clock',
    description: 'Test mode: the clock’s time, its status (`ready`, `advancing`) and its requests.',
    scopes: ['requests:read'],
    operationId: 'getTestClock',
    input: ClockRef,
    readOnly: true,
    run: (client, args) => client.testHelpers.testClocks.get(ClockRef.parse(args).clock_id),
  },
  {
    name: 'advance_test_clock',
    title: 'Advance a test clock',
    description:
      'Test mode: moves the clock to `frozen_time`. Every deadline of its requests that it passes (offer answers, milestone auto-approval, payment expiry, dispute windows) fires in order, with its events.',
    scopes: ['requests:create'],
    operationId: 'advanceTestClock',
    input: ClockRef.extend(TestClockAdvance.shape),
    readOnly: false,
    run: (client, args) => {
      const { clock_id, ...body } = ClockRef.extend(TestClockAdvance.shape).parse(args);
      return client.testHelpers.testClocks.advance(clock_id, body);
    },
  },
];
