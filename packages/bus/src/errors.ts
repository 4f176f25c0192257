import { BUS_ERRORS, BusErrorCode, isConflictCode, type ConflictCode } from '@handoff/contracts';

type Details = Record<string, unknown>;

/** A conflict names, in `code`, the problem code of the catalogue that the caller answers with. */
export type ConflictDetails = Details & { code: ConflictCode };

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
  readonly details: Details | undefined;

  constructor(
    code: 'conflict',
    message: string,
    options: { cause?: unknown; details: ConflictDetails },
  );
  constructor(
    code: Exclude<BusErrorCode, 'conflict'>,
    message: string,
    options?: { cause?: unknown; details?: Details },
  );
  constructor(
    code: BusErrorCode,
    message: string,
    options: { cause?: unknown; details?: Details } = {},
  ) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'BusError';
    this.code = code;
    this.retryable = BUS_ERRORS[code].retryable;
    this.details = options.details;
  }

  get status(): number {
    return BUS_ERRORS[this.code].status;
  }

  static fromStatus(status: number, description: string, details?: Details): BusError {
    const separator = description.indexOf(': ');
    const code = BusErrorCode.options.find(
      (candidate) => description.slice(0, separator) === candidate,
    );
    const message = separator >= 0 ? description.slice(separator + 2) : description;
    if (code === 'conflict') {
      const named = details?.code;
      if (isConflictCode(named))
        return new BusError(code, message, { details: { ...details, code: named } });
      // A conflict the catalogue has no code for cannot be answered as one: it is the service's
      // fault (or another version's), so it is logged and answered as such.
      return new BusError('internal_error', description, details ? { details } : {});
    }
    if (code) return new BusError(code, message, details ? { details } : {});
    return new BusError(status === 503 ? 'unavailable' : 'internal_error', description);
  }
}
