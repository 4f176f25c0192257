import { stateMachinesDocument } from '@handoff/contracts';
import {
  HandoffConnectionError,
  HandoffError,
  type HandoffClient,
  type RequestCreated,
} from '@handoff/sdk';
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { withCachedJsonSchema } from './cached-schema.ts';
import { attachTasks, createTaskResult, declaresTasks } from './tasks/extension.ts';
import { toolsFor, type ToolDefinition } from './tools.ts';

export const SERVER_INFO = { name: 'handoff', version: '0.1.0' } as const;

/** What to do about a problem, for the model reading the tool result. */
function nextStep(error: HandoffError): string {
  switch (error.code) {
    case 'validation_failed':
      return 'Fix the fields named in `errors` (JSON pointers into the arguments) and call again.';
    case 'request_token_missing':
    case 'request_token_invalid':
      return 'Pass the `request_token` that create_handoff returned for this `request_id`.';
    case 'request_not_found':
      return 'Check `request_id`: it must be a request this key created (create_handoff returns it).';
    case 'insufficient_scope':
      return `This key lacks ${JSON.stringify(error.body.missing_scopes ?? error.body.required_scopes)}; ask Handoff staff to grant it to the integration.`;
    case 'invalid_state_transition':
      return `Not possible in the current state (${String(error.body.current_state ?? 'see the resource')}); allowed now: ${JSON.stringify(error.body.allowed_actions ?? [])}. Read the resource, or wait_for_updates until it changes.`;
    case 'rate_limited':
    case 'service_unavailable':
      return `Wait ${error.retryAfterSeconds ?? 1} s and call again with the same arguments.`;
    case 'api_key_invalid':
    case 'api_key_expired':
    case 'api_key_missing':
      return 'The agent key is not accepted; configure a valid HANDOFF_API_KEY.';
    default:
      return error.status >= 500
        ? 'A server-side problem; call again later.'
        : `Read \`detail\` and adjust the call (status ${error.status}).`;
  }
}

function failure(error: unknown): CallToolResult {
  const payload =
    error instanceof HandoffError
      ? {
          status: error.status,
          code: error.code,
          detail: error.detail,
          ...(error.errors.length > 0 ? { errors: error.errors } : {}),
          request_id: error.requestId,
          next_step: nextStep(error),
        }
      : error instanceof HandoffConnectionError
        ? {
            code: 'connection_failed',
            detail: error.message,
            next_step: 'Handoff could not be reached; call again later.',
          }
        : { code: 'tool_failed', detail: String(error), next_step: 'Check the arguments.' };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(payload, null, 2) }] };
}

/** How a server answers tasks: for the agent key whose task ids it seals and opens. */
export interface TaskOptions {
  apiKey: string;
}

function register(
  server: McpServer,
  client: HandoffClient,
  tool: ToolDefinition,
  tasks: TaskOptions | undefined,
) {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: withCachedJsonSchema(tool.input),
      annotations: { readOnlyHint: tool.readOnly, openWorldHint: true },
    },
    async (args: Record<string, unknown>, ctx): Promise<CallToolResult> => {
      try {
        const result = await tool.run(client, args);
        if (tool.task && tasks && declaresTasks(ctx)) {
          // The extension's CreateTaskResult stands in for the tool's result (`resultType`
          // passes through the SDK's tools/call result on 2026-07-28).
          return createTaskResult(tasks.apiKey, result as RequestCreated) as never;
        }
        const structured =
          typeof result === 'object' && result !== null && !Array.isArray(result)
            ? (result as Record<string, unknown>)
            : { result };
        return {
          content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
          structuredContent: structured,
        };
      } catch (error) {
        return failure(error);
      }
    },
  );
}

/**
 * One MCP server for one agent key: only the tools its scopes allow are listed (and so usable),
 * each calling the agent API through @handoff/sdk. Resources: the capabilities and the state
 * machines of the engagement. With `tasks` (a 2026-07-28 client), `create_handoff` answers a
 * task that follows the request when the client declares the Tasks extension.
 */
export function createHandoffMcpServer(
  client: HandoffClient,
  scopes: readonly string[],
  tasks?: TaskOptions,
) {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Hand customer requests to human providers and follow them: create_handoff returns `id` and ' +
      '`request_token`; pass both to every other tool. Use wait_for_updates to wait for what ' +
      'providers and staff do. The resource handoff://docs/state-machines lists allowed moves.',
  });
  // A test key (test mode) also gets the test clock tools.
  const tools = toolsFor(scopes, client.testHelpers.livemode);
  for (const tool of tools) register(server, client, tool, tasks);
  if (tasks && tools.some((tool) => tool.task)) attachTasks(server, client, tasks.apiKey);
  server.registerResource(
    'capabilities',
    'handoff://capabilities',
    {
      title: 'Handoff capabilities',
      description: 'Version, scopes, event types, limits and rate limits of the API.',
      mimeType: 'application/json',
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify(await client.capabilities(), null, 2),
        },
      ],
    }),
  );
  server.registerResource(
    'state-machines',
    'handoff://docs/state-machines',
    {
      title: 'State machines',
      description:
        'Every state of requests, proposals, jobs, milestones, deliverables, disputes and payments, with the allowed moves.',
      mimeType: 'text/markdown',
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: stateMachinesDocument() }],
    }),
  );
  return server;
}
