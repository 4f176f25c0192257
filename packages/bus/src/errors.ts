import {
  ERRORS,
  isErrorCode,
  isRetryable,
  type ErrorCode,
  type ErrorStatus,
} from '@handoff/contracts';

type Details = Record<string, unknown>;

/**
 * An error that crosses the bus, named by a code of the one catalogue (`ERRORS`): a service says
 * what is wrong (`milestone_not_found`, `request_closed`), the gateway answers with it as it came.
 * A handler throws it to answer with a NATS micro error (`Nats-Service-Error-Code` carries the
 * code's status, `Nats-Service-Error` `<code>: <message>`, the body the details); `call()` turns
 * such a reply back into a `BusError` for the caller. Message and details are for the caller, so
 * they say nothing a caller may not know.
 */
export class BusError extends Error {
  readonly code: ErrorCode;
  /** Worth trying again later (no responder, timeout, a dependency down): from the code. */
  readonly retryable: boolean;
  /** Safe, structured facts for the caller (e.g. the current state and the allowed moves). */
  readonly details: Details | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; details?: Details } = {},
  ) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'BusError';
    this.code = code;
    this.retryable = isRetryable(code);
    this.details = options.details;
  }

  get status(): ErrorStatus {
    return ERRORS[this.code].status;
  }

  /**
   * The error a reply's NATS micro error stands for. A code the catalogue does not know (another
   * version's) is an `internal_error` that keeps the whole description; a 503 without a code
   * (the server's own, e.g. a stopping service) is `service_unavailable`.
   */
  static fromReply(status: number, description: string, details?: Details): BusError {
    const separator = description.indexOf(': ');
    const code = separator >= 0 ? description.slice(0, separator) : undefined;
    if (isErrorCode(code)) {
      return new BusError(code, description.slice(separator + 2), details ? { details } : {});
    }
    return new BusError(status === 503 ? 'service_unavailable' : 'internal_error', description);
  }
}
