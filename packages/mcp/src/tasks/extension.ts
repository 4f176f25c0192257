import { HandoffError, type HandoffClient, type RequestCreated } from '@handoff/sdk';
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { detailedTask, REQUEST_META, taskFields } from './detailed-task.ts';
import { pendingInputs } from './inputs.ts';
import { readSnapshot } from './snapshot.ts';
import { openTaskId, sealTaskId, type TaskRef } from './task-id.ts';

/** The MCP Tasks extension (SEP-2663) of protocol revision 2026-07-28. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

const TaskId = z.object({ taskId: z.string().max(1_000) });
const ElicitAnswer = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).optional(),
});
// The SDK lifts `inputResponses` out of the params into `ctx.mcpReq.inputResponses`, as it does
// for the multi-round-trip requests whose shape `tasks/update` shares.
const InputResponses = z.record(z.string(), z.unknown());
const UpdateParams = TaskId.extend({ inputResponses: InputResponses.optional() });

/** The part of a request's declared capabilities that names its extensions. */
const DeclaredExtensions = z.object({ extensions: z.record(z.string(), z.unknown()) });

/** Whether this request's own capabilities (2026-07-28: declared per request) name the extension. */
export function declaresTasks(ctx: ServerContext): boolean {
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES as keyof object] as unknown;
  const parsed = DeclaredExtensions.safeParse(capabilities);
  return parsed.success && TASKS_EXTENSION in parsed.data.extensions;
}

function requireTasks(ctx: ServerContext) {
  if (!declaresTasks(ctx)) {
    throw new MissingRequiredClientCapabilityError({
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  }
}

/** A `create_handoff` answered as a task: its id seals the new request's id and token. */
export function createTaskResult(apiKey: string, created: RequestCreated) {
  const taskId = sealTaskId(apiKey, { requestId: created.id, requestToken: created.request_token });
  return {
    resultType: 'task',
    ...taskFields(taskId, 'working', created.created_at, created.updated_at),
    statusMessage: 'Handed over; waiting for a provider.',
    _meta: { [REQUEST_META]: { id: created.id, request_token: created.request_token } },
  };
}

/** An API problem as the JSON-RPC error a task method answers. */
function protocolError(error: unknown): never {
  if (error instanceof ProtocolError) throw error;
  if (error instanceof HandoffError) {
    if (error.status === 404 || error.status === 403) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Task not found.');
    }
    if (error.status === 422 || error.status === 409) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.detail, {
        code: error.code,
        errors: error.errors,
      });
    }
    throw new ProtocolError(ProtocolErrorCode.InternalError, error.detail, { code: error.code });
  }
  if (error instanceof z.ZodError) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, z.prettifyError(error));
  }
  throw error;
}

/** Why the task's request refused the cancel, by the state it is in. */
function notCancellable(error: HandoffError): string {
  const state = String(error.body.current_state);
  return state === 'in_progress'
    ? 'The task cannot be cancelled: a provider is engaged on its request (in_progress). Open a dispute (open_dispute) for staff to settle it.'
    : `The task cannot be cancelled: its request is ${state} already.`;
}

/**
 * Serves `tasks/get`, `tasks/update` and `tasks/cancel` (the extension has no `tasks/list`) for
 * one agent key. Nothing is kept between calls: the task id names the request, and every answer
 * is read from the request through the agent API, so any replica answers any task.
 */
export function attachTasks(server: McpServer, client: HandoffClient, apiKey: string) {
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  const refOf = (taskId: string): TaskRef => {
    const ref = openTaskId(apiKey, taskId);
    if (!ref) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Task not found.');
    return ref;
  };
  const handle =
    <P>(run: (params: P, ref: TaskRef, ctx: ServerContext) => Promise<Record<string, unknown>>) =>
    async (params: P & { taskId: string }, ctx: ServerContext) => {
      requireTasks(ctx);
      try {
        return await run(params, refOf(params.taskId), ctx);
      } catch (error) {
        return protocolError(error);
      }
    };

  server.server.setRequestHandler(
    'tasks/get',
    { params: TaskId },
    handle<z.infer<typeof TaskId>>(async (params, ref) =>
      detailedTask(params.taskId, await readSnapshot(client, ref)),
    ),
  );

  server.server.setRequestHandler(
    'tasks/update',
    { params: UpdateParams },
    handle<z.infer<typeof UpdateParams>>(async (params, ref, ctx) => {
      const responses = InputResponses.parse(params.inputResponses ?? ctx.mcpReq.inputResponses);
      // Only what is outstanding now is acted on: an answer to a question already answered,
      // superseded or never asked is ignored, as the extension asks.
      const pending = pendingInputs(await readSnapshot(client, ref));
      for (const input of pending) {
        if (!(input.key in responses)) continue;
        const answer = ElicitAnswer.parse(responses[input.key]);
        // Declining or dismissing the form leaves the question open.
        if (answer.action !== 'accept') continue;
        await input.apply(client, ref, answer.content ?? {});
      }
      return {};
    }),
  );

  server.server.setRequestHandler(
    'tasks/cancel',
    { params: TaskId },
    handle(async (_params, ref) => {
      // The request's own cancel (`POST /v1/request/{id}/cancel`): its open proposals are
      // declined, and the task is `cancelled` from then on. Once a provider is engaged, or when
      // the request is closed already, the API refuses (409), answered as the extension asks of
      // a task that cannot be cancelled: invalid params, saying why.
      try {
        await client.requests.cancel(ref.requestId, {}, { token: ref.requestToken });
      } catch (error) {
        if (error instanceof HandoffError && error.code === 'invalid_state_transition') {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, notCancellable(error), {
            code: error.code,
            current_state: error.body.current_state,
          });
        }
        throw error;
      }
      return {};
    }),
  );
}
