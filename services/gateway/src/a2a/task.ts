import { Task } from '@a2a-js/sdk';
import {
  A2A_WIRE_STATES,
  a2aUpdateOf,
  a2aWireArtifact,
  a2aWireMessage,
  type A2aAgentMessage,
  type A2aTaskRef,
  type A2aTaskState,
  type Deliverable,
  type EventEnvelope,
  type Message,
  type Request,
} from '@handoff/contracts';

/** Where the task stands: its state, what it asks of the client, and since when. */
export interface TaskStatus {
  state: A2aTaskState;
  message?: A2aAgentMessage;
  timestamp: string;
}

export const TERMINAL: ReadonlySet<A2aTaskState> = new Set([
  'completed',
  'canceled',
  'failed',
  'rejected',
]);
/** The states a stream and a blocking send end at: terminal, or waiting for the client. */
export const isFinalOrInterrupted = (state: A2aTaskState) =>
  TERMINAL.has(state) || state === 'input-required';

const FROM_REQUEST: Record<Request['status'], A2aTaskState> = {
  submitted: 'submitted',
  routed: 'working',
  in_progress: 'working',
  completed: 'completed',
  cancelled: 'canceled',
};

/**
 * The task's status: the request's own when it is closed (completed, cancelled), else what the
 * latest event of the request that says anything of the status implies (a provider's message, a
 * proposal or a submitted milestone waiting for the client, or work going on), else the
 * request's status as it is.
 */
export function statusOf(
  request: Pick<Request, 'status' | 'created_at'>,
  events: readonly EventEnvelope[],
): TaskStatus {
  const closed = FROM_REQUEST[request.status];
  for (const event of [...events].reverse()) {
    const update = a2aUpdateOf(event);
    if (update.kind !== 'status') continue;
    if (TERMINAL.has(closed) || TERMINAL.has(update.state)) break;
    return {
      state: update.state,
      ...(update.message ? { message: update.message } : {}),
      timestamp: event.timestamp,
    };
  }
  const last = events.at(-1);
  return { state: closed, timestamp: last?.timestamp ?? request.created_at };
}

/** The status on the 1.0 wire. */
export function wireStatus(ref: A2aTaskRef, status: TaskStatus) {
  return {
    state: A2A_WIRE_STATES[status.state],
    ...(status.message ? { message: a2aWireMessage(ref, status.message) } : {}),
    timestamp: status.timestamp,
  };
}

/** What a task is built from: the request and its conversation, deliverables and events. */
export interface TaskSources {
  request: Request;
  /** The client's first message's id: the opening of the history. */
  openingId: string;
  conversation: readonly Message[];
  deliverables: readonly Deliverable[];
  status: TaskStatus;
  historyLength?: number | undefined;
}

/**
 * The request as an A2A task: its brief and conversation as the history (the agent's messages
 * as the client's, `ROLE_USER`; the provider's and staff's as the agent's), its deliverables
 * (withdrawn ones left out) as artifacts, and the request's own status and mode in metadata.
 */
export function taskOf(ref: A2aTaskRef, sources: TaskSources): Task {
  const { request } = sources;
  const message = (id: string, role: 'ROLE_USER' | 'ROLE_AGENT', text: string) => ({
    messageId: id,
    contextId: ref.contextId,
    taskId: ref.taskId,
    role,
    parts: [{ text, mediaType: 'text/plain' }],
  });
  const history = [
    message(sources.openingId, 'ROLE_USER', request.message),
    ...sources.conversation.map((entry) =>
      message(entry.id, entry.author_role === 'agent' ? 'ROLE_USER' : 'ROLE_AGENT', entry.message),
    ),
  ];
  const kept =
    sources.historyLength === undefined
      ? history
      : history.slice(Math.max(0, history.length - sources.historyLength));
  return Task.fromJSON({
    id: ref.taskId,
    contextId: ref.contextId,
    status: wireStatus(ref, sources.status),
    history: kept,
    artifacts: sources.deliverables
      .filter((deliverable) => deliverable.status !== 'withdrawn')
      .map((deliverable) =>
        a2aWireArtifact({
          id: deliverable.id,
          name: deliverable.title,
          description: deliverable.description,
          url: deliverable.url,
          ...(deliverable.files ? { files: deliverable.files } : {}),
        }),
      ),
    metadata: {
      request_status: request.status,
      livemode: request.livemode,
      ...(request.test_scenario ? { test_scenario: request.test_scenario } : {}),
    },
  });
}
