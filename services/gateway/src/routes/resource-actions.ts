import type { ConflictCode, NotFoundCode, Operation, Scope } from '@handoff/contracts';
import type { z } from 'zod';
import { type Access, type CallerOf, defineRoute, type RouteDefinition } from '../http/route.ts';
import {
  ENGAGEMENT_RESOURCES,
  type EngagementResource,
  isEngagementResource,
} from './engagement-resources.ts';
import { child, childIds, IdParams } from './ids.ts';
import { staffActor } from './parties.ts';

/**
 * A `POST` on one resource that one side of the API may make: a state move (`accept`,
 * `withdraw`), a comment, or a child created under it. The route states what differs; the
 * factory of each side adds its path, access and party, and `input` turns the resource's id, the
 * caller's own id and the body into the bus operation's input.
 */
export interface ActionSpec<Who, I extends z.ZodType, O extends z.ZodType, B extends z.ZodType> {
  /** The resource's collection, e.g. `proposals`. */
  plural: string;
  /** The last segment of the path, e.g. `accept`. */
  verb: string;
  operationId: string;
  summary: string;
  /** Default: the side's tag (none for the customer's) and `plural`. */
  tags?: readonly string[];
  op: Operation<I, O>;
  body?: B;
  bodyOptional?: boolean;
  /** 201 when the action creates a child resource. */
  status?: 200 | 201;
  response: z.ZodType;
  /** The route's 404 codes; default: that of `plural` when it is a resource of the engagement. */
  notFound?: readonly NotFoundCode[];
  conflicts?: readonly ConflictCode[];
  input(who: Who, body: z.output<B>): z.input<I>;
}

const routeFields = <Who, I extends z.ZodType, O extends z.ZodType, B extends z.ZodType>(
  spec: ActionSpec<Who, I, O, B>,
  side: readonly string[],
) => {
  const notFound =
    spec.notFound ??
    (isEngagementResource(spec.plural) ? [ENGAGEMENT_RESOURCES[spec.plural].notFound] : undefined);
  if (notFound === undefined) throw new Error(`${spec.operationId} names no 404 code`);
  return {
    method: 'post' as const,
    operationId: spec.operationId,
    summary: spec.summary,
    tags: spec.tags ?? [...side, spec.plural],
    body: spec.body,
    bodyOptional: spec.bodyOptional,
    status: spec.status ?? 200,
    response: spec.response,
    notFound,
    conflicts: spec.conflicts,
  };
};

/**
 * The customer's action under `/v1/request/{id}/<plural>/{<idParam>}/<verb>` (the resource's
 * `idParam`, e.g. `proposal_id`): the pipeline checks the request token first (and, with
 * `openRequest`, that the request is open), then the resource is looked for under that request
 * only.
 */
export function customerAction<
  I extends z.ZodType,
  O extends z.ZodType,
  B extends z.ZodType = z.ZodType,
>(
  spec: ActionSpec<{ id: string; request_id: string }, I, O, B> & {
    plural: EngagementResource;
    scope: Scope;
    openRequest?: boolean;
  },
): RouteDefinition {
  const { idParam } = ENGAGEMENT_RESOURCES[spec.plural];
  const fields = routeFields(spec, []);
  return defineRoute({
    ...fields,
    path: `/v1/request/{id}/${spec.plural}/{${idParam}}/${spec.verb}`,
    access: { kind: 'agent', scopes: [spec.scope] },
    requestToken: spec.openRequest ? 'open' : 'owner',
    notFound: [...fields.notFound, 'request_not_found'],
    params: child(idParam),
    handle: (ctx) => {
      const { child: resource } = childIds(ctx.params, idParam);
      return ctx.call(spec.op, spec.input({ id: resource, request_id: ctx.request.id }, ctx.body));
    },
  });
}

/** A provider's or staff's action under `/v1/<side>/<plural>/{id}/<verb>`, `who` acting. */
function ownAction<
  K extends 'provider' | 'staff',
  W,
  I extends z.ZodType,
  O extends z.ZodType,
  B extends z.ZodType,
>(
  kind: K,
  who: (ctx: CallerOf[K]) => W,
  spec: ActionSpec<{ id: string } & W, I, O, B>,
): RouteDefinition {
  return defineRoute({
    ...routeFields(spec, [kind]),
    path: `/v1/${kind}/${spec.plural}/{id}/${spec.verb}`,
    access: { kind } as Extract<Access, { kind: K }>,
    params: IdParams,
    handle: (ctx) => ctx.call(spec.op, spec.input({ id: ctx.params.id, ...who(ctx) }, ctx.body)),
  });
}

/** The provider's action under `/v1/provider/<plural>/{id}/<verb>`, on its own resources only. */
export const providerAction = <
  I extends z.ZodType,
  O extends z.ZodType,
  B extends z.ZodType = z.ZodType,
>(
  spec: ActionSpec<{ id: string; provider_id: string }, I, O, B>,
): RouteDefinition =>
  ownAction('provider', (ctx) => ({ provider_id: ctx.provider.provider_id }), spec);

/** Staff's action under `/v1/staff/<plural>/{id}/<verb>`; `actor` is who acted, for the audit. */
export const staffAction = <
  I extends z.ZodType,
  O extends z.ZodType,
  B extends z.ZodType = z.ZodType,
>(
  spec: ActionSpec<{ id: string; actor: string }, I, O, B>,
): RouteDefinition => ownAction('staff', (ctx) => ({ actor: staffActor(ctx) }), spec);
