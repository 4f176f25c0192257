import {
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksResponse,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  ExtendedAgentCardNotConfiguredError,
  RequestMalformedError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext, User } from '@a2a-js/sdk/server';
import type { Logger } from '@handoff/observability';
import { toA2aError } from './errors.ts';
import { followTask, type FollowDeps, type Progress } from './follow.ts';
import type { A2aCall } from './invoke.ts';
import type { PushConfigs } from './push.ts';
import { isFinalOrInterrupted, taskOf, type TaskStatus } from './task.ts';
import {
  actOnTask,
  allEvents,
  cancelTaskRequest,
  createTask,
  ownedTask,
  readTask,
} from './tasks.ts';

/** The caller the A2A route authenticated, as the SDK hands it to the handler. */
export class AgentUser implements User {
  readonly call: A2aCall;
  constructor(call: A2aCall) {
    this.call = call;
  }
  get isAuthenticated() {
    return true;
  }
  get userName() {
    return this.call.agent.integration_id;
  }
}

export interface HandlerDeps extends FollowDeps {
  push: PushConfigs;
  logger: Logger;
  /** The card without an origin: the SDK reads the protocol versions it declares. */
  card: AgentCard;
  /** How long a blocking `SendMessage` waits for the task to need the client or end. */
  blockingWaitMs: number;
}

const callOf = (context: ServerCallContext): A2aCall => {
  const { user } = context;
  if (!(user instanceof AgentUser)) throw new Error('the A2A route authenticates every call');
  return user.call;
};

/** Where a task stands once the client acted, until an event says more. */
const now = (state: TaskStatus['state']): TaskStatus => ({
  state,
  timestamp: new Date().toISOString(),
});

/**
 * The A2A methods on handoff requests (docs/a2a.md). Every method acts through the agent's REST
 * operations in this process (see invoke.ts), as the calling integration with the request token
 * held for it; a failure is answered as the A2A error it amounts to.
 */
export class HandoffRequestHandler implements A2ARequestHandler {
  readonly #deps: HandlerDeps;

  constructor(deps: HandlerDeps) {
    this.#deps = deps;
  }

  getAgentCard(): Promise<AgentCard> {
    return Promise.resolve(this.#deps.card);
  }

  getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    return Promise.reject(new ExtendedAgentCardNotConfiguredError());
  }

  sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    return this.#guard(context, async (call) => {
      const start = await this.#begin(call, params);
      if (params.configuration?.returnImmediately) return start.task;
      const deadline = Date.now() + this.#deps.blockingWaitMs;
      // Only where the updates end matters here.
      await drain(followTask(this.#deps, call, start.owned, start.progress, deadline));
      const status = start.progress.status ?? start.initial;
      const historyLength = params.configuration?.historyLength;
      return (await readTask(this.#deps, call, start.owned, { status, historyLength })).task;
    });
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.#stream(context, async function* (handler, call) {
      const start = await handler.#begin(call, params);
      yield { payload: { $case: 'task' as const, value: start.task } };
      yield* followTask(handler.#deps, call, start.owned, start.progress);
    });
  }

  async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.#stream(context, async function* (handler, call) {
      const owned = await ownedTask(handler.#deps, call, params.id);
      const { task, events, status } = await readTask(handler.#deps, call, owned);
      yield { payload: { $case: 'task' as const, value: task } };
      if (isFinalOrInterrupted(status.state)) return;
      const progress: Progress = { after: events.at(-1)?.data.sequence ?? 0, status: undefined };
      yield* followTask(handler.#deps, call, owned, progress);
    });
  }

  getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.#guard(context, async (call) => {
      const owned = await ownedTask(this.#deps, call, params.id);
      return (await readTask(this.#deps, call, owned, { historyLength: params.historyLength }))
        .task;
    });
  }

  listTasks(): Promise<ListTasksResponse> {
    return Promise.reject(
      new UnsupportedOperationError(
        'Listing tasks is not offered; keep the ids SendMessage answers.',
      ),
    );
  }

  cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.#guard(context, async (call) => {
      const owned = await ownedTask(this.#deps, call, params.id);
      await cancelTaskRequest(this.#deps, call, owned);
      return (await readTask(this.#deps, call, owned, { status: now('canceled') })).task;
    });
  }

  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.#guard(context, async (call) =>
      this.#deps.push.create(call, await ownedTask(this.#deps, call, params.taskId), params),
    );
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.#guard(context, async (call) =>
      this.#deps.push.get(call, await ownedTask(this.#deps, call, params.taskId), params.id),
    );
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.#guard(context, async (call) => ({
      configs: await this.#deps.push.list(call, await ownedTask(this.#deps, call, params.taskId)),
      nextPageToken: '',
    }));
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    return this.#guard(context, async (call) =>
      this.#deps.push.remove(call, await ownedTask(this.#deps, call, params.taskId), params.id),
    );
  }

  /**
   * A new task from a message without a task id, else the client's follow-up on its task; and
   * where the task stands then: the task to answer at once, and where to follow it from.
   */
  async #begin(call: A2aCall, params: SendMessageRequest) {
    const { message } = params;
    if (!message) throw new RequestMalformedError('SendMessage needs a message.');
    if (!message.taskId) {
      const { owned, request } = await createTask(this.#deps, call, message);
      const push = params.configuration?.taskPushNotificationConfig;
      if (push) await this.#deps.push.create(call, owned, { ...push, taskId: owned.ref.taskId });
      const initial: TaskStatus = { state: 'submitted', timestamp: request.created_at };
      const task = taskOf(owned.ref, {
        request,
        openingId: owned.held.message_id,
        conversation: [],
        deliverables: [],
        status: initial,
      });
      return { owned, task, initial, progress: { after: 0, status: undefined } };
    }
    const owned = await ownedTask(this.#deps, call, message.taskId);
    if (message.contextId && message.contextId !== owned.ref.contextId) {
      throw new RequestMalformedError('The message’s contextId is not its task’s.');
    }
    const after = (await allEvents(this.#deps, call, owned)).at(-1)?.data.sequence ?? 0;
    await actOnTask(this.#deps, call, owned, message);
    const initial = now('working');
    const { task } = await readTask(this.#deps, call, owned, { status: initial });
    return { owned, task, initial, progress: { after, status: undefined } as Progress };
  }

  async #guard<T>(context: ServerCallContext, run: (call: A2aCall) => Promise<T>): Promise<T> {
    const call = callOf(context);
    try {
      return await run(call);
    } catch (error) {
      throw toA2aError(error, this.#deps.logger, String(call.res.locals.callId));
    }
  }

  async *#stream(
    context: ServerCallContext,
    run: (handler: this, call: A2aCall) => AsyncGenerator<StreamResponse, void, undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const call = callOf(context);
    try {
      yield* run(this, call);
    } catch (error) {
      throw toA2aError(error, this.#deps.logger, String(call.res.locals.callId));
    }
  }
}

async function drain(updates: AsyncGenerator<StreamResponse, void, undefined>): Promise<void> {
  for (let next = await updates.next(); !next.done; next = await updates.next());
}
