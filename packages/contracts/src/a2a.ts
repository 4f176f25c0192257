import { z } from 'zod';
import type { EventEnvelope } from './events.ts';

/**
 * A handoff as an A2A task (docs/a2a.md): what the gateway's A2A binding and the webhook
 * dispatcher's A2A push notifications share, so that a task's stream, its `GetTask` and its
 * push notifications say the same thing of each event. The shapes are A2A 1.0's JSON (ProtoJSON
 * of `lf.a2a.v1`), written out here because this package depends on no A2A library.
 */

/** The A2A protocol version of the shapes below. */
export const A2A_PROTOCOL_VERSION = '1.0';

/** Where an A2A push notification carries the client's token (A2A 1.0, push notifications). */
export const A2A_NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';

export const A2A_TASK_STATES = [
  'submitted',
  'working',
  'input-required',
  'completed',
  'canceled',
  'failed',
  'rejected',
] as const;
export type A2aTaskState = (typeof A2A_TASK_STATES)[number];

/** Each state's name on the 1.0 wire. */
export const A2A_WIRE_STATES: Record<A2aTaskState, string> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  canceled: 'TASK_STATE_CANCELED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
};

/** The decisions an input-required task takes, in a data part `{"decision": …}`. */
export const A2A_DECISIONS = {
  proposal: ['accept', 'decline'],
  milestone_review: ['approve', 'request_changes'],
} as const;

/**
 * Where one task's push notifications go: the endpoint the gateway registers for a push
 * notification config carries it, and the dispatcher then delivers only that request's events,
 * each as the A2A update it implies. `token` and `authorization` are the client's, sent back
 * with each notification; the dispatcher stores them encrypted like signing secrets.
 */
export const A2aPushTarget = z.strictObject({
  request_id: z.string().regex(/^req_/).max(64),
  context_id: z.string().min(1).max(256),
  config_id: z.string().min(1).max(256),
  token: z.string().min(1).max(1_024).optional(),
  /** `<scheme> <credentials>` for the `Authorization` header. */
  authorization: z.string().min(1).max(2_048).optional(),
});
export type A2aPushTarget = z.infer<typeof A2aPushTarget>;

/** What an endpoint shows of its A2A target: never the client's token or credentials. */
export const A2aPushView = z.object({
  task_id: z.string(),
  context_id: z.string(),
  config_id: z.string(),
});

/** A message of the agent (the provider's side) to the A2A client, as plain data. */
export interface A2aAgentMessage {
  id: string;
  text: string;
  data?: Record<string, unknown>;
}

/** What one event means to the task: a new status, or a new artifact. */
export type A2aUpdate =
  | { kind: 'status'; state: A2aTaskState; message?: A2aAgentMessage }
  | {
      kind: 'artifact';
      artifact: {
        id: string;
        name: string;
        description: string | null;
        /** Null for a deliverable of files only. */
        url: string | null;
        /** The deliverable's files' metadata; an agent reads their download URLs from the API. */
        files?: unknown[];
      };
    };

const text = (object: Record<string, unknown>, key: string): string => {
  const value = object[key];
  return typeof value === 'string' ? value : '';
};

const REQUEST_STATES: Record<string, A2aTaskState> = {
  submitted: 'submitted',
  routed: 'working',
  in_progress: 'working',
  completed: 'completed',
  cancelled: 'canceled',
};

function proposalPrompt(object: Record<string, unknown>): A2aAgentMessage {
  const days = typeof object.estimated_days === 'number' ? ` in ${object.estimated_days} days` : '';
  return {
    id: text(object, 'id'),
    text:
      `${text(object, 'provider_name') || 'A provider'} proposes ${String(object.amount)} ` +
      `${text(object, 'currency')}${days}: ${text(object, 'message')} ` +
      'Answer with a data part {"decision": "accept"} or {"decision": "decline"}.',
    data: {
      kind: 'proposal',
      proposal_id: text(object, 'id'),
      amount: object.amount,
      currency: object.currency,
      decisions: [...A2A_DECISIONS.proposal],
    },
  };
}

function reviewPrompt(object: Record<string, unknown>): A2aAgentMessage {
  return {
    id: `${text(object, 'id')}.r${String(object.revision ?? 1)}`,
    text:
      `Milestone "${text(object, 'title')}" was submitted for review. Answer with a data part ` +
      '{"decision": "approve"} or {"decision": "request_changes", "reason": "…"}.',
    data: {
      kind: 'milestone_review',
      milestone_id: text(object, 'id'),
      title: object.title,
      amount: object.amount,
      decisions: [...A2A_DECISIONS.milestone_review],
    },
  };
}

/**
 * What an event of the request means to its A2A task. A provider's (or staff's) message asks
 * for the agent's input, as do a proposal and a milestone submitted for review; a deliverable is
 * an artifact; the request's own status says when it started, finished or was cancelled; any
 * other event means the work goes on.
 */
export function a2aUpdateOf(event: Pick<EventEnvelope, 'type' | 'data'>): A2aUpdate {
  const { object } = event.data;
  switch (event.type) {
    case 'request.created':
      return { kind: 'status', state: 'submitted' };
    case 'request.updated':
      return { kind: 'status', state: REQUEST_STATES[text(object, 'status')] ?? 'working' };
    case 'message.created': {
      const role = text(object, 'author_role');
      if (role !== 'provider' && role !== 'staff') return { kind: 'status', state: 'working' };
      const message = { id: text(object, 'id'), text: text(object, 'message') };
      return { kind: 'status', state: 'input-required', message };
    }
    case 'proposal.received':
      return { kind: 'status', state: 'input-required', message: proposalPrompt(object) };
    case 'milestone.submitted':
      return { kind: 'status', state: 'input-required', message: reviewPrompt(object) };
    case 'deliverable.created':
      return {
        kind: 'artifact',
        artifact: {
          id: text(object, 'id'),
          name: text(object, 'title'),
          description: typeof object.description === 'string' ? object.description : null,
          url: typeof object.url === 'string' ? object.url : null,
          ...(Array.isArray(object.files) && object.files.length > 0
            ? { files: object.files as unknown[] }
            : {}),
        },
      };
    default:
      return { kind: 'status', state: 'working' };
  }
}

/** The task's ids, and where in the request's events an update comes from. */
export interface A2aTaskRef {
  taskId: string;
  contextId: string;
}

/** A message of the agent in 1.0 JSON. */
export function a2aWireMessage(ref: A2aTaskRef, message: A2aAgentMessage) {
  return {
    messageId: message.id,
    contextId: ref.contextId,
    taskId: ref.taskId,
    role: 'ROLE_AGENT',
    parts: [
      { text: message.text, mediaType: 'text/plain' },
      ...(message.data ? [{ data: message.data, mediaType: 'application/json' }] : []),
    ],
  };
}

/** A deliverable as an artifact in 1.0 JSON. */
export function a2aWireArtifact(artifact: Extract<A2aUpdate, { kind: 'artifact' }>['artifact']) {
  return {
    artifactId: artifact.id,
    name: artifact.name,
    ...(artifact.description ? { description: artifact.description } : {}),
    parts: [
      ...(artifact.url === null ? [] : [{ url: artifact.url, mediaType: 'text/uri-list' }]),
      ...(artifact.description ? [{ text: artifact.description, mediaType: 'text/plain' }] : []),
      // The files' metadata, not their bytes: `GET /v1/request/{id}/files` gives their URLs.
      ...(artifact.files
        ? [{ data: { files: artifact.files }, mediaType: 'application/json' }]
        : []),
    ],
  };
}

/**
 * An event as the A2A 1.0 `StreamResponse` a push notification carries: a `statusUpdate` or an
 * `artifactUpdate`, with the event's id, type and sequence in its metadata.
 */
export function a2aStreamResponseOf(
  event: Pick<EventEnvelope, 'id' | 'type' | 'timestamp' | 'data'>,
  ref: A2aTaskRef,
): Record<string, unknown> {
  const update = a2aUpdateOf(event);
  const metadata = { event_id: event.id, event_type: event.type, sequence: event.data.sequence };
  if (update.kind === 'artifact') {
    return {
      artifactUpdate: { ...ref, artifact: a2aWireArtifact(update.artifact), metadata },
    };
  }
  return {
    statusUpdate: {
      ...ref,
      status: {
        state: A2A_WIRE_STATES[update.state],
        ...(update.message ? { message: a2aWireMessage(ref, update.message) } : {}),
        timestamp: event.timestamp,
      },
      metadata,
    },
  };
}
