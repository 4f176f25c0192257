import type { paths } from './generated/schema.ts';

export type { paths } from './generated/schema.ts';

type Method = 'get' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = paths[P][M];

/** The JSON of an operation's success answer (200, 201 or 202), straight from the OpenAPI types. */
export type Ok<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? {
        [S in keyof R]: S extends 200 | 201 | 202
          ? R[S] extends { content: { 'application/json': infer J } }
            ? J
            : never
          : never;
      }[keyof R]
    : never;

/** The JSON body an operation takes. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;

/** The query parameters of an operation, paging included. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The filters of a list operation: its query without the paging parameters. */
export type ListFilters<P extends keyof paths> = Omit<
  QueryOf<P, 'get'>,
  'limit' | 'starting_after' | 'ending_before'
>;

type Item<L> = L extends { data: (infer T)[] } ? T : never;

export type ServiceCategory = Item<Ok<'/v1/services', 'get'>>;
export type Capabilities = Ok<'/v1/capabilities', 'get'>;
export type RequestCreate = BodyOf<'/v1/ai-to-human-request', 'post'>;
export type RequestCreated = Ok<'/v1/ai-to-human-request', 'post'>;
export type RequestDetail = Ok<'/v1/request/{id}', 'get'>;
export type Message = Ok<'/v1/request/{id}/message', 'post'>;
/**
 * A file of a request (a message's attachment or a deliverable's) with a signed `download_url`
 * that works for 15 minutes; read the file again for a fresh one.
 */
export type FileObject = Ok<'/v1/request/{id}/files/{file_id}', 'get'>;
export type PaymentRequest = Ok<'/v1/request/{id}/payment-request', 'post'>;
/** A payment of the request as the agent sees it (no payment provider or its reference). */
export type Payment = Item<Ok<'/v1/request/{id}/payments', 'get'>>;
export type Proposal = Ok<'/v1/request/{id}/proposals/{proposal_id}', 'get'>;
export type Milestone = Ok<'/v1/request/{id}/milestones/{milestone_id}', 'get'>;
export type Deliverable = Ok<'/v1/request/{id}/deliverables/{deliverable_id}', 'get'>;
export type Dispute = Ok<'/v1/request/{id}/disputes/{dispute_id}', 'get'>;
export type Job = Ok<'/v1/request/{id}/jobs/{job_id}', 'get'>;
/** The event envelope, the same in webhooks, the event feed and the long-poll. */
export type Event = Ok<'/v1/events/{id}', 'get'>;
export type WebhookEndpoint = Ok<'/v1/webhook-endpoints/{id}', 'get'>;
export type WebhookAttempt = Item<Ok<'/v1/webhook-endpoints/{id}/attempts', 'get'>>;
