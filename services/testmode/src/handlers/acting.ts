// How test mode acts: bus calls of the services' own operations (the ones the gateway's routes
// call), as the simulated provider or as staff, and which refusals mean "already done".
import { BusError, call, type Bus } from '@handoff/bus';
import {
  SIMULATED_PROVIDER_ID,
  type ErrorCode,
  type Operation,
  type Party,
} from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { z } from 'zod';

/** How long one operation may take before the event is tried again. */
const CALL_TIMEOUT_MS = 5_000;

/** The simulated provider as the milestones service's reads and moves name it. */
export const SIMULATED: Party = { role: 'provider', provider_id: SIMULATED_PROVIDER_ID };

export interface Acting {
  logger: Logger;
  call<I extends z.ZodType, O extends z.ZodType>(
    op: Operation<I, O>,
    input: z.input<I>,
  ): Promise<z.output<O>>;
}

export function acting(nc: Bus['nc'], logger: Logger): Acting {
  return {
    logger,
    call: (op, input) => call(nc, op, input, { timeoutMs: CALL_TIMEOUT_MS }),
  };
}

/**
 * The answer of `action`, or undefined when it was refused with one of `codes`: a move that
 * another delivery of the same event (or the other party) already made, which is not a failure.
 */
export async function unlessRefused<T>(
  action: Promise<T>,
  ...codes: readonly ErrorCode[]
): Promise<T | undefined> {
  try {
    return await action;
  } catch (error) {
    if (error instanceof BusError && codes.includes(error.code)) return undefined;
    throw error;
  }
}

/** Most items a state check reads of one request (far more than a scenario ever makes). */
export const CHECK_LIMIT = 100;
