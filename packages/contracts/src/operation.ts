import type { z } from 'zod';
import type { BackendService } from './services.ts';

/** One request-reply operation on the bus: its subject and the schemas of both directions. */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  service: BackendService;
  name: string;
  subject: string;
  input: I;
  output: O;
}

export function operation<I extends z.ZodType, O extends z.ZodType>(
  service: BackendService,
  name: string,
  input: I,
  output: O,
): Operation<I, O> {
  return { service, name, subject: `handoff.${service}.${name}`, input, output };
}

/**
 * The operations of one service, so that each declaration names only itself: `intakeOp` in
 * service-ops.ts is `operationsOf('intake')`, and `intakeOp('requests.get', input, output)`.
 */
export function operationsOf(service: BackendService) {
  return <I extends z.ZodType, O extends z.ZodType>(name: string, input: I, output: O) =>
    operation(service, name, input, output);
}
