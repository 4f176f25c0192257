import { REQUEST_MOVES } from './requests.ts';
import { STATE_MACHINES } from './lifecycle.ts';
import { machineMarkdown } from './lifecycle-docs.ts';

const requestTable = Object.entries(REQUEST_MOVES)
  .map(
    ([from, to]) =>
      `| \`${from}\` | ${to.length ? to.map((s) => `\`${s}\``).join(', ') : '(final)'} |`,
  )
  .join('\n');

/**
 * `docs/state-machines.md`: every state machine of a request's work, generated from the data the
 * services enforce (`lifecycle.ts`), so the page cannot drift from the code.
 */
export function stateMachinesDocument(): string {
  return [
    '# State machines',
    '',
    '<!-- Generated from packages/contracts/src/lifecycle.ts by `npm run openapi`; do not edit. -->',
    '',
    'Every resource of the work on a request moves along one of these machines. The owning',
    'service enforces them in its domain layer; an action that is not listed for the current',
    'state gets 409 `invalid_state_transition` naming `current_state` and `allowed_actions`, and',
    'changes nothing. Every waiting state has a `deadline_at` in the resource and a documented',
    'consequence when it passes (applied by a sweep every 60 s). Staff see everything waiting on a',
    'deadline at `GET /v1/staff/deadlines`. The same tables are in the OpenAPI document, in the',
    'description of each resource’s tag.',
    '',
    '“Who”: `customer` is the agent acting for its customer with the request token; `provider` a',
    'provider key; `staff` a staff token; `system` the service itself (a deadline, or a follow-up',
    'of another move).',
    '',
    '## The request',
    '',
    'Staff move a request (`PATCH /v1/staff/requests/{id}`); the engagement moves it too: an',
    'accepted proposal makes it `in_progress`, a completed job makes it `completed`. Every change',
    'is a `request.updated` event.',
    '',
    '| State | may move to |',
    '|---|---|',
    requestTable,
    '',
    ...STATE_MACHINES.map((machine) => machineMarkdown(machine, '##')),
  ].join('\n');
}
