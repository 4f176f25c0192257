/** One problem with one field of the call (`errors[]` of a 422), as a JSON pointer. */
export interface FieldError {
  pointer: string;
  code: string;
  detail: string;
}

/**
 * An RFC 9457 problem answer of the Handoff API. Branch on `code` (stable, snake_case); `status`
 * is the HTTP status and `errors` lists each bad field of a 422.
 */
export class HandoffError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string | undefined;
  readonly errors: readonly FieldError[];
  /** Seconds the server asked to wait (`Retry-After`), when it did. */
  readonly retryAfterSeconds: number | undefined;
  /** The whole problem body, for extension members such as `required_scopes` or `allowed_actions`. */
  readonly body: Readonly<Record<string, unknown>>;

  constructor(status: number, body: Record<string, unknown>, retryAfterSeconds?: number) {
    const text = (key: string) => (typeof body[key] === 'string' ? body[key] : undefined);
    const code = text('code') ?? `http_${status}`;
    const detail = text('detail') ?? `The API answered ${status}.`;
    super(`${status} ${code}: ${detail}`);
    this.name = 'HandoffError';
    this.status = status;
    this.code = code;
    this.title = text('title') ?? '';
    this.detail = detail;
    this.requestId = text('request_id');
    this.errors = Array.isArray(body.errors) ? (body.errors as FieldError[]) : [];
    this.retryAfterSeconds = retryAfterSeconds;
    this.body = body;
  }
}

/** The API could not be reached (connection refused or reset, DNS) after every retry. */
export class HandoffConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HandoffConnectionError';
  }
}

/** Seconds from a `Retry-After` header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The problem of a failed answer, whatever its body turned out to be. */
/**
 * Whether an answer is the problem `code` with `status`, read from a copy of it (the answer's own
 * body stays unread for the caller).
 */
export async function isProblem(
  response: Response,
  status: number,
  code: string,
): Promise<boolean> {
  if (response.status !== status) return false;
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return body.code === code;
  } catch {
    return false;
  }
}

export function problemOf(response: Response, error: unknown): HandoffError {
  const body =
    typeof error === 'object' && error !== null && !Array.isArray(error)
      ? (error as Record<string, unknown>)
      : { detail: typeof error === 'string' && error !== '' ? error : response.statusText };
  return new HandoffError(
    response.status,
    body,
    parseRetryAfter(response.headers.get('retry-after')),
  );
}

/**
 * The data of an openapi-fetch answer, or its problem thrown as a `HandoffError`, so that callers
 * write `const x = await unwrap(api.GET(...))` and handle failures in one place.
 */
export async function unwrap<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw problemOf(response, error);
  return data as T;
}
