import {
  accessOps,
  APPLICATION_SECRET_PATTERN,
  ApplicationCreate,
  ApplicationStatusView,
  ApplicationSubmitted,
  IssuedKey,
} from '@handoff/contracts';
import { sha256Hex } from '@handoff/runtime';
import type { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { IdParams } from './ids.ts';

type ApplicantContext = RouteContext<'applicant', z.output<typeof IdParams>>;

/**
 * The application the applicant's secret opens, as intake looks it up. A malformed secret is
 * answered like a wrong one, without a trip to the intake service.
 */
function application({ params, applicationSecret: secret }: ApplicantContext) {
  if (!secret || !APPLICATION_SECRET_PATTERN.test(secret)) {
    throw new HttpError(
      'application_not_found',
      'No such access application, or the secret does not match.',
    );
  }
  return { id: params.id, secret_hash: sha256Hex(secret) };
}

/** What the routes of one application share. */
const APPLICANT = {
  tags: ['access'],
  access: { kind: 'applicant' },
  params: IdParams,
  notFound: ['application_not_found'],
} as const;

/** The applicant's side of conventions §1 "Access": apply, check the status, claim the key once. */
export const accessRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/access-applications',
    operationId: 'submitAccessApplication',
    summary: 'Apply for access; the application secret is shown once',
    tags: ['access'],
    access: { kind: 'public' },
    body: ApplicationCreate,
    status: 201,
    response: ApplicationSubmitted,
    handle: ({ body, call }) => call(accessOps.submit, { application: body }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/access-applications/{id}',
    operationId: 'getAccessApplication',
    summary: "An application's status, with its secret",
    ...APPLICANT,
    status: 200,
    response: ApplicationStatusView,
    handle: (ctx) => ctx.call(accessOps.status, application(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/access-applications/{id}/api-key',
    operationId: 'claimApiKey',
    summary: 'Claim the agent key of an approved application, once',
    ...APPLICANT,
    status: 201,
    response: IssuedKey,
    handle: (ctx) => ctx.call(accessOps.claimKey, application(ctx)),
  }),
];
