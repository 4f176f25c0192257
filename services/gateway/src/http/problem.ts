import { ERRORS, PROBLEM_BASE, type ErrorCode, type Problem } from '@handoff/contracts';
import type { Response } from 'express';
import type { HttpError } from './errors.ts';

/** Reason phrases of the statuses the API answers with (problem titles, OpenAPI descriptions). */
export const STATUS_TITLES: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * Answers with RFC 9457 problem details; `code` is what clients branch on, and `type` is its page
 * at `/docs/errors/<code>` (`docs.ts`).
 */
export function sendProblem(
  res: Response,
  code: ErrorCode,
  detail: string,
  extra: Record<string, unknown> = {},
): void {
  const body = problemBody(code, detail, String(res.locals.callId ?? ''), extra);
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}

/** The problem details of `code` for the call `callId`, as {@link sendProblem} sends them. */
export function problemBody(
  code: ErrorCode,
  detail: string,
  callId: string,
  extra: Record<string, unknown> = {},
): Problem & Record<string, unknown> {
  const { status } = ERRORS[code];
  return {
    type: `${PROBLEM_BASE}${code}`,
    title: STATUS_TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    request_id: callId,
    ...extra,
  };
}

export function sendHttpError(res: Response, error: HttpError): void {
  res.set(error.headers);
  sendProblem(res, error.code, error.message, error.extra);
}
