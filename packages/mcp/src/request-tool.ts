import type { HandoffClient } from '@handoff/sdk';
import { z } from 'zod';
import type { ToolDefinition } from './tool-definition.ts';

/** The request a tool acts on: the id and the token `create_handoff` returned (stateless). */
export const OnRequest = z.object({
  request_id: z.string().max(64).describe('The id `create_handoff` returned (`req_...`).'),
  request_token: z
    .string()
    .max(200)
    .describe('The `request_token` `create_handoff` returned for this request (`hrt_...`).'),
});
export const on = (args: Record<string, unknown>) => {
  const { request_id, request_token } = OnRequest.parse(args);
  return { id: request_id, opts: { token: request_token } };
};

/** The fields of a body schema beside the request reference (the API validates the rest). */
export const withRequest = <T extends z.ZodRawShape>(shape: T) => OnRequest.extend(shape);

/** The API's body fields of a tool call: everything except the request reference. */
export function bodyOf<T = Record<string, unknown>>(args: Record<string, unknown>): T {
  const body = { ...args };
  delete body.request_id;
  delete body.request_token;
  return body as T;
}

export type Requests = HandoffClient['requests'];
export type Token = { token: string };
export type Described = Omit<ToolDefinition, 'input' | 'run'>;

/**
 * A tool on one request: its input is the request reference with `fields`, and `call` gets the
 * request's id and token and the tool's arguments.
 */
export const onRequest = (
  tool: Described,
  fields: z.ZodRawShape,
  call: (requests: Requests, id: string, opts: Token, args: Record<string, unknown>) => unknown,
): ToolDefinition => ({
  ...tool,
  input: withRequest(fields),
  run: async (client, args) => {
    const { id, opts } = on(args);
    return call(client.requests, id, opts, args);
  },
});
