import type { Scope } from '@handoff/contracts';

const SEND = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);
const READ = new Set(['GetTask', 'SubscribeToTask', 'tasks/get', 'tasks/resubscribe']);
const CANCEL = new Set(['CancelTask', 'tasks/cancel']);
const PUSH = new Set([
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
]);

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** The decision a message's data parts carry, in either version's part shape. */
function decisionIn(message: Record<string, unknown>): unknown {
  const parts = Array.isArray(message.parts) ? message.parts : [];
  for (const part of parts) {
    const decision = record(record(part).data).decision;
    if (decision !== undefined) return decision;
  }
  return undefined;
}

/** The scope an action on a task needs, by the decision it carries (none: a message). */
const ACTION_SCOPES: Record<string, Scope> = {
  accept: 'proposals:accept',
  decline: 'proposals:accept',
  approve: 'milestones:review',
  request_changes: 'milestones:review',
};

/**
 * The scopes a JSON-RPC call needs, by its method and what its params ask, as the REST routes
 * behind it need them: a new task `requests:create`, a reply `messages:create`, a decision the
 * scope of its action (`proposals:accept`, `milestones:review`); reading the task
 * (`GetTask`, a stream, a send that waits) `requests:read`; cancelling it `requests:create` (the
 * cancel route's) and `requests:read`; push notification configs
 * `webhooks:manage`. Both the 1.0 method names and the 0.3 ones. Checked before the call runs,
 * so a key without them is answered 403 like on the REST API.
 */
export function scopesOf(body: unknown): Scope[] {
  const rpc = record(body);
  const method = typeof rpc.method === 'string' ? rpc.method : '';
  const params = record(rpc.params);
  if (READ.has(method)) return ['requests:read'];
  // The cancel route's scope, and the read of the task it answers.
  if (CANCEL.has(method)) return ['requests:create', 'requests:read'];
  if (PUSH.has(method)) return ['webhooks:manage'];
  if (!SEND.has(method)) return [];
  const message = record(params.message);
  const configuration = record(params.configuration);
  const legacy = method.includes('/');
  const streaming = method === 'SendStreamingMessage' || method === 'message/stream';
  const immediately = legacy
    ? params.configuration !== undefined && configuration.blocking !== true
    : configuration.returnImmediately === true;
  const push = legacy
    ? configuration.pushNotificationConfig
    : configuration.taskPushNotificationConfig;
  const taskId = message.taskId ?? message.task_id;
  const decision = decisionIn(message);
  const action: Scope =
    typeof taskId === 'string' && taskId !== ''
      ? (ACTION_SCOPES[String(decision)] ?? 'messages:create')
      : 'requests:create';
  return [
    action,
    ...(streaming || !immediately ? (['requests:read'] as const) : []),
    ...(push === undefined ? [] : (['webhooks:manage'] as const)),
  ];
}
