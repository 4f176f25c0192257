import { type Message, type Task } from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotCancelableError } from '@a2a-js/sdk/errors';
import {
  Deliverable,
  EventEnvelope,
  listOf,
  RequestCreated,
  RequestDetail,
  type A2aTaskRef,
} from '@handoff/contracts';
import { fromBusError, HttpError } from '../http/errors.ts';
import { noSuchTask } from './errors.ts';
import { createBody, decisionOf, readMessage, type Decision } from './input.ts';
import type { A2aCall, Invoke } from './invoke.ts';
import { statusOf, taskOf, type TaskStatus } from './task.ts';
import type { HeldTask, TaskTokens } from './tokens.ts';

export interface TaskDeps {
  invoke: Invoke;
  tokens: TaskTokens;
}

/** A task of the calling integration's: its ids, and the request token held for it. */
export interface OwnedTask {
  ref: A2aTaskRef;
  held: HeldTask;
}

const EventList = listOf(EventEnvelope);
const DeliverableList = listOf(Deliverable);
/** Pages of a request's events read for one answer (100 each): far more than a request has. */
const MAX_EVENT_PAGES = 20;

/** The integration's task, or TaskNotFound: an unknown id and another's task look the same. */
export async function ownedTask(deps: TaskDeps, call: A2aCall, taskId: string): Promise<OwnedTask> {
  const held = await deps.tokens.get(call.agent.integration_id, taskId);
  if (!held) throw noSuchTask();
  return { ref: { taskId, contextId: held.context_id }, held };
}

/**
 * A new task: the message becomes a handoff request through the REST create route, and the
 * request token it answers is held for the integration before the client hears of the task.
 * The context is the client's when it named one, else the task's own id.
 */
export async function createTask(deps: TaskDeps, call: A2aCall, message: Message) {
  const answer = await deps.invoke(call, 'createHandoffRequest', {
    body: createBody(readMessage(message)),
  });
  const { request_token: token, ...request } = RequestCreated.parse(answer);
  const held: HeldTask = {
    token,
    context_id: message.contextId || request.id,
    message_id: message.messageId || request.id,
  };
  await deps.tokens.hold(call.agent.integration_id, request.id, held);
  const owned: OwnedTask = { ref: { taskId: request.id, contextId: held.context_id }, held };
  return { owned, request };
}

/** The request's events after `after`, waiting up to `wait` seconds for one (the long-poll). */
export async function eventsAfter(
  deps: TaskDeps,
  call: A2aCall,
  owned: OwnedTask,
  after: number,
  wait: number,
) {
  const answer = await deps.invoke(call, 'waitForRequestUpdates', {
    params: { id: owned.ref.taskId },
    query: { after: String(after), wait: String(wait) },
    token: owned.held.token,
  });
  return EventList.parse(answer);
}

/** Every event of the request the feed holds, in sequence order. */
export async function allEvents(deps: TaskDeps, call: A2aCall, owned: OwnedTask) {
  const events: EventEnvelope[] = [];
  for (let page = 0; page < MAX_EVENT_PAGES; page++) {
    const after = events.at(-1)?.data.sequence ?? 0;
    const answer = await eventsAfter(deps, call, owned, after, 0);
    events.push(...answer.data);
    if (!answer.has_more || answer.data.length === 0) break;
  }
  return events;
}

/**
 * The task as it stands: the request with its conversation, its deliverables and its events,
 * read at once through the agent's REST routes. `status` replaces the one the events read imply
 * (a stream knows newer events than the feed may hold yet).
 */
export async function readTask(
  deps: TaskDeps,
  call: A2aCall,
  owned: OwnedTask,
  options: { historyLength?: number | undefined; status?: TaskStatus } = {},
): Promise<{ task: Task; events: EventEnvelope[]; status: TaskStatus }> {
  const at = { params: { id: owned.ref.taskId }, token: owned.held.token };
  const [detail, deliverables, events] = await Promise.all([
    deps.invoke(call, 'getRequest', at).then((answer) => RequestDetail.parse(answer)),
    deps
      .invoke(call, 'listDeliverables', { ...at, query: { limit: '100' } })
      .then((answer) => DeliverableList.parse(answer)),
    options.status ? Promise.resolve([]) : allEvents(deps, call, owned),
  ]);
  const status = options.status ?? statusOf(detail, events);
  const task = taskOf(owned.ref, {
    request: detail,
    openingId: owned.held.message_id,
    conversation: detail.conversation,
    deliverables: deliverables.data,
    status,
    historyLength: options.historyLength,
  });
  return { task, events, status };
}

/** The proposal or milestone a decision is about: the one named, else the latest waiting. */
async function decided(deps: TaskDeps, call: A2aCall, owned: OwnedTask, decision: Decision) {
  if (decision.id !== undefined) return decision.id;
  const type = decision.on === 'proposal' ? 'proposal.received' : 'milestone.submitted';
  const events = await allEvents(deps, call, owned);
  const latest = events.findLast((event) => event.type === type)?.data.object.id;
  if (typeof latest === 'string') return latest;
  throw new RequestMalformedError(
    `No ${decision.on} of this task waits for a decision; name one with "${decision.on}_id".`,
  );
}

/**
 * The client's follow-up on its task: a decision (a data part `{"decision": …}`) is the REST
 * action it names on the proposal or milestone; anything else is a message into the request's
 * conversation, as `POST /v1/request/{id}/message`.
 */
export async function actOnTask(deps: TaskDeps, call: A2aCall, owned: OwnedTask, message: Message) {
  const input = readMessage(message);
  const decision = decisionOf(input);
  const params = { id: owned.ref.taskId };
  const token = owned.held.token;
  if (decision === undefined) {
    if (input.text === undefined) {
      throw new RequestMalformedError('A reply needs a text part, or a data part with a decision.');
    }
    await deps.invoke(call, 'sendMessage', { params, body: { message: input.text }, token });
    return;
  }
  const id = await decided(deps, call, owned, decision);
  const reason = decision.reason === undefined ? {} : { reason: decision.reason };
  if (decision.on === 'proposal') {
    const proposal = { params: { ...params, proposal_id: id }, token };
    await (decision.decision === 'accept'
      ? deps.invoke(call, 'acceptProposal', proposal)
      : deps.invoke(call, 'declineProposal', { ...proposal, body: reason }));
    return;
  }
  const milestone = { params: { ...params, milestone_id: id }, token };
  await (decision.decision === 'approve'
    ? deps.invoke(call, 'approveMilestone', milestone)
    : deps.invoke(call, 'requestMilestoneChanges', { ...milestone, body: reason }));
}

/** Why a task's request cannot be cancelled now, by the state the refusal names. */
function notCancelable(state: unknown): string {
  if (state === 'in_progress') {
    return (
      'A provider is engaged on this request (in_progress): its agent can no longer cancel it. ' +
      'Open a dispute (POST /v1/request/{id}/disputes) for staff to settle and cancel it.'
    );
  }
  return `The request is ${String(state)}: it allows no further moves.`;
}

/**
 * Cancels the task's request through `POST /v1/request/{id}/cancel`, which the request's machine
 * allows only before a provider is engaged; a refusal of the machine's is TaskNotCancelable,
 * saying why.
 */
export async function cancelTaskRequest(deps: TaskDeps, call: A2aCall, owned: OwnedTask) {
  try {
    await deps.invoke(call, 'cancelRequest', {
      params: { id: owned.ref.taskId },
      body: {},
      token: owned.held.token,
    });
  } catch (error) {
    const known = fromBusError(error);
    if (known instanceof HttpError && known.code === 'invalid_state_transition') {
      throw new TaskNotCancelableError(notCancelable(known.extra.current_state));
    }
    throw error;
  }
}
