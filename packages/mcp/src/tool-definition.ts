import type { Scope } from '@handoff/contracts';
import type { HandoffClient } from '@handoff/sdk';
import type { z } from 'zod';

/**
 * Every tool names the scope(s) its API call needs, so that a key only ever sees the tools it
 * may use, and the operation it mirrors (checked against the OpenAPI document in the tests).
 */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  scopes: readonly Scope[];
  operationId: string;
  input: z.ZodObject;
  readOnly: boolean;
  /**
   * The tool may answer a task (the MCP Tasks extension) when the client declares it: `run`
   * then returns the created request that the task follows.
   */
  task?: boolean;
  run(client: HandoffClient, args: Record<string, unknown>): Promise<unknown>;
}
