import type { BusErrorCode } from '@handoff/contracts';

const STATUS: Record<BusErrorCode, number> = {
  validation_failed: 400,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  invalid_state_transition: 409,
  unavailable: 503,
  internal_error: 500,
};

/**
 * An error that crosses the bus. A handler throws it to answer with a NATS micro error
 * (`Nats-Service-Error-Code` carries the status, `Nats-Service-Error` the code and message);
 * `request()` turns such a reply back into a `BusError` for the caller.
 */
export class BusError extends Error {
  readonly code: BusErrorCode;
  /** Worth trying again later (no responder, timeout, a dependency down). */
  readonly retryable: boolean;
  /** Safe, structured facts for the caller (e.g. the current state and the allowed moves). */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: BusErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'BusError';
    this.code = code;
    this.retryable = code === 'unavailable';
    this.details = options.details;
  }

  get status(): number {
    return STATUS[this.code];
  }

  static fromStatus(
    status: number,
    description: string,
    details?: Record<string, unknown>,
  ): BusError {
    const separator = description.indexOf(': ');
    const code = (Object.keys(STATUS) as BusErrorCode[]).find(
      (candidate) => description.slice(0, separator) === candidate,
    );
    const message = separator >= 0 ? description.slice(separator + 2) : description;
    if (code) return new BusError(code, message, details ? { details } : {});
    return new BusError(status === 503 ? 'unavailable' : 'internal_error', description);
  }
}
