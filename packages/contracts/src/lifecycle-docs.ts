import { actorsIn, type StateMachine } from './state-machine.ts';

/**
 * Renders a state machine of `lifecycle.ts` for people: a transition table (state × action → next
 * state, event, who), the waiting states with their deadline and its consequence, and a mermaid
 * `stateDiagram-v2`. The OpenAPI tag descriptions are made of it, so the table an agent developer
 * reads is the data the services run.
 */

const code = (text: string) => `\`${text}\``;
const words = (text: string) => text.replaceAll('_', ' ');
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

interface Move {
  from: string;
  action: string;
  to: string;
}

function movesOf(machine: StateMachine): Move[] {
  const moves = machine.moves as Record<string, Record<string, string | undefined>>;
  return machine.states.flatMap((from) =>
    Object.entries(moves[from] ?? {}).flatMap(([action, to]) =>
      to === undefined ? [] : [{ from, action, to }],
    ),
  );
}

/** The mermaid `stateDiagram-v2` of a machine (self-loops included; terminal states end in `[*]`). */
export function machineMermaid(machine: StateMachine): string {
  const lines = ['stateDiagram-v2', `    [*] --> ${machine.initial}`];
  for (const { from, action, to } of movesOf(machine))
    lines.push(`    ${from} --> ${to}: ${action}`);
  const moves = machine.moves as Record<string, Record<string, unknown>>;
  for (const state of machine.states) {
    if (Object.keys(moves[state] ?? {}).length === 0) lines.push(`    ${state} --> [*]`);
  }
  return lines.join('\n');
}

/**
 * The machine in Markdown: what it starts with, the transition table, the waiting states and the
 * diagram. `heading` is the Markdown heading prefix of its title (`###` by default).
 */
export function machineMarkdown(machine: StateMachine, heading = '###'): string {
  const events = machine.events as Record<string, string | null>;
  const describe = machine.describe as Record<string, string>;
  const waiting = machine.waiting as Record<
    string,
    | { waiting_on: string; days: number; on_deadline: string | null; consequence: string }
    | undefined
  >;
  const moves = machine.moves as Record<string, Record<string, unknown>>;
  const terminal = machine.states.filter((state) => Object.keys(moves[state] ?? {}).length === 0);
  const name = words(machine.resource);

  const out: string[] = [];
  out.push(`${heading} The ${name} state machine`, '');
  const article = /^[aeiou]/.test(name) ? 'An' : 'A';
  out.push(
    `${article} ${name} starts in ${code(machine.initial)}` +
      (machine.created_event
        ? ` and its creation publishes ${code(machine.created_event)}.`
        : ' (its creation publishes no event of its own).') +
      ` States: ${machine.states.map(code).join(', ')}; final: ${terminal.map(code).join(', ')}.` +
      ` Any action not listed for the current state is refused with 409 ` +
      `${code('invalid_state_transition')}, whose body names ${code('current_state')} and ` +
      `${code('allowed_actions')}; nothing changes.`,
  );
  out.push('');
  out.push('| State | Action | Next state | Event | Who |', '|---|---|---|---|---|');
  for (const { from, action, to } of movesOf(machine)) {
    const event = events[action];
    out.push(
      `| ${code(from)} | ${code(action)} | ${code(to)} | ${event ? code(event) : '—'} | ${actorsIn(machine, from, action).join(', ')} |`,
    );
  }
  const waitingStates = machine.states.filter((state) => waiting[state] !== undefined);
  if (waitingStates.length > 0) {
    out.push('');
    out.push(
      `Waiting states carry ${code('deadline_at')} (it is ${code('null')} in every other state):`,
      '',
    );
    out.push('| State | Waiting on | Deadline | When it passes |', '|---|---|---|---|');
    for (const state of waitingStates) {
      const wait = waiting[state];
      if (!wait) continue;
      const action = wait.on_deadline
        ? `${code(wait.on_deadline)} (by the system). ${wait.consequence}`
        : wait.consequence;
      out.push(
        `| ${code(state)} | ${wait.waiting_on} | ${wait.days} days after entering the state | ${cell(action)} |`,
      );
    }
  }
  out.push('');
  out.push('Actions:', '');
  for (const action of Object.keys(events)) {
    out.push(`- ${code(action)}: ${describe[action] ?? ''}`);
  }
  out.push('', '```mermaid', machineMermaid(machine), '```');
  return out.join('\n');
}
