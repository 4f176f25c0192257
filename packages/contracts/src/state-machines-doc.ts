import { ALL_STATE_MACHINES } from './lifecycle.ts';
import { machineMarkdown } from './lifecycle-docs.ts';

/**
 * `docs/state-machines.md`: every state machine the services enforce, generated from the data
 * they run (`lifecycle.ts`), so the page cannot drift from the code.
 */
export function stateMachinesDocument(): string {
  return [
    '# State machines',
    '',
    '<!-- Generated from packages/contracts/src/lifecycle.ts by `npm run openapi`; do not edit. -->',
    '',
    'A request, the work on it and an access application each move along one of these machines.',
    'The owning service enforces them in its domain layer; an action that is not listed for the',
    'current state gets 409 `invalid_state_transition` naming `current_state` and `allowed_actions`',
    '(the actions of that state open to the caller), and changes nothing. Every waiting state has a',
    '`deadline_at` in the resource and a documented consequence when it passes (applied by a sweep',
    'every 60 s). Staff see everything waiting on a deadline at `GET /v1/staff/deadlines`. The same',
    'tables are in the OpenAPI document, in the description of each resource’s tag.',
    '',
    '“Who”: `customer` is the agent acting for its customer with the request token; `provider` a',
    'provider key; `staff` a staff token; `applicant` whoever holds an access application’s secret;',
    '`system` the service itself (a deadline, or a follow-up of another move).',
    '',
    ...ALL_STATE_MACHINES.map((machine) => machineMarkdown(machine, '##')),
  ].join('\n');
}
