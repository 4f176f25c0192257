import type { Api } from './client.ts';
import { unwrap } from './errors.ts';
import { paginate, type Page } from './paginate.ts';
import type { BodyOf, ListFilters, Ok, paths } from './types.ts';

type Method = 'get' | 'post' | 'patch' | 'delete';

/** The paths that have a `method` operation. */
type With<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

/**
 * The ids a call names, one per `{placeholder}` of its path: the resource's, then its child's
 * (no operation has three).
 */
type Ids<P extends string> = P extends `${string}{${string}}${string}{${string}}${string}{${string}`
  ? never
  : P extends `${string}{${string}}${string}{${string}}${string}`
    ? [id: string, childId: string]
    : P extends `${string}{${string}}${string}`
      ? [id: string]
      : [];

type Item<P extends With<'get'>> = Ok<P, 'get'> extends { data: (infer T)[] } ? T : never;

/** A path without its last segment: the collection of an item's path. */
type Parent<P extends string> = P extends `${infer Head}/${infer Rest}`
  ? Rest extends `${string}/${string}`
    ? `${Head}/${Parent<Rest>}`
    : Head
  : never;
/** The item paths (`.../{x}`) whose collection can be listed. */
type ItemPath = {
  [P in With<'get'>]: P extends `${string}/{${string}}`
    ? Parent<P> extends With<'get'>
      ? P
      : never
    : never;
}[With<'get'>];

type Call<
  P extends keyof paths,
  M extends Method,
  Args extends unknown[],
  Tail extends unknown[],
> = (...args: [...Ids<P>, ...Args, ...Tail]) => Promise<Ok<P, M>>;
type Lister<P extends With<'get'>, Filters extends unknown[], ListOpts> = (
  ...args: [...Ids<P>, ...Filters, opts?: ListOpts]
) => AsyncGenerator<Item<P>, void, undefined>;
type Listing<P extends With<'get'>, ListOpts> = Lister<P, [filters?: ListFilters<P>], ListOpts>;

/**
 * One client method per operation, typed from the OpenAPI paths: the path's ids come first
 * (a request's, then its proposal's, milestone's, ...), then the body when the operation takes
 * one, then `Tail` (the client's per-call options, if it has them). Every list is an async
 * iterator over all its pages.
 */
export interface Operations<Tail extends unknown[], ListOpts> {
  get<P extends With<'get'>>(path: P): Call<P, 'get', [], Tail>;
  /** An action without a body. */
  post<P extends With<'post'>>(path: P): Call<P, 'post', [], Tail>;
  /** An action with a body, or with `empty` as its body when the caller gives none. */
  send<P extends With<'post'>>(path: P): Call<P, 'post', [body: BodyOf<P, 'post'>], Tail>;
  send<P extends With<'post'>>(
    path: P,
    empty: BodyOf<P, 'post'>,
  ): Call<P, 'post', [body?: BodyOf<P, 'post'>], Tail>;
  patch<P extends With<'patch'>>(path: P): Call<P, 'patch', [body: BodyOf<P, 'patch'>], Tail>;
  delete<P extends With<'delete'>>(path: P): Call<P, 'delete', [], Tail>;
  /** A list with its filters (its query without the paging parameters). */
  list<P extends With<'get'>>(path: P): Listing<P, ListOpts>;
  /** A list without filters. */
  pages<P extends With<'get'>>(path: P): Lister<P, [], ListOpts>;
  /** The list of a collection and the read of one item, from the item's path. */
  collection<P extends ItemPath>(
    item: P,
  ): { list: Listing<Parent<P>, ListOpts>; get: Call<P, 'get', [], Tail> };
}

/** Per list call: a signal that stops the paging. */
export interface ListOption {
  signal?: AbortSignal;
}

/** The headers a client adds to each call (the agent's request token), from its first id and options. */
export type HeadersOf<O> = (id: string, opts: O | undefined) => Record<string, string>;

type Fetcher = (
  path: string,
  init: { params: Record<string, unknown>; body?: unknown; signal?: AbortSignal },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * The operations of a client over `api`. With `headersOf`, every call ends with the options `O`
 * and sends the headers made from them; without it, only the lists take options (a signal).
 */
export function operations<O extends ListOption>(
  api: Api,
  headersOf: HeadersOf<O>,
): Operations<[opts?: O], O>;
export function operations<O extends ListOption = ListOption>(api: Api): Operations<[], O>;
export function operations(api: Api, headersOf?: HeadersOf<ListOption>) {
  // openapi-fetch types a call by its literal path; these calls are typed by `Operations`
  // instead, so they reach its methods untyped.
  const fetcher = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE') =>
    api[method] as unknown as Fetcher;

  /**
   * Reads the arguments of a call on `path`: one id per placeholder, then the payload (a body,
   * a list's filters) when it takes one, then the options.
   */
  const reader = (path: string, withPayload: boolean) => {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => String(match[1]));
    return (args: unknown[]) => {
      const ids = args.slice(0, names.length) as string[];
      const opts = args[names.length + (withPayload ? 1 : 0)] as ListOption | undefined;
      return {
        payload: withPayload ? args[names.length] : undefined,
        /** Made when the request is sent: without a request token, the agent's lookup throws. */
        params: () => ({
          path: Object.fromEntries(names.map((name, index) => [name, ids[index]])),
          ...(headersOf ? { header: headersOf(ids[0] ?? '', opts) } : {}),
        }),
        signal: opts?.signal ? { signal: opts.signal } : {},
      };
    };
  };

  /** A call; with `body`, its payload is the body (`body.empty` when the caller gives none). */
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: { empty: unknown },
  ) => {
    const read = reader(path, body !== undefined);
    return (...args: unknown[]) => {
      const { payload, params, signal } = read(args);
      return unwrap(
        fetcher(method)(path, {
          params: params(),
          ...(body ? { body: payload === undefined ? body.empty : payload } : {}),
          ...signal,
        }),
      );
    };
  };

  const list = (path: string, filtered: boolean) => {
    const read = reader(path, filtered);
    return (...args: unknown[]) => {
      const { payload: filters = {}, params, signal } = read(args);
      return paginate(
        (cursor) =>
          unwrap(
            fetcher('GET')(path, {
              params: { ...params(), query: { ...(filters as object), ...cursor } },
              ...signal,
            }),
          ) as Promise<Page<{ id: string }>>,
      );
    };
  };

  const untyped = {
    get: (path: string) => call('GET', path),
    post: (path: string) => call('POST', path),
    send: (path: string, empty?: unknown) => call('POST', path, { empty }),
    patch: (path: string) => call('PATCH', path, { empty: undefined }),
    delete: (path: string) => call('DELETE', path),
    list: (path: string) => list(path, true),
    pages: (path: string) => list(path, false),
    collection: (item: string) => ({
      list: list(item.slice(0, item.lastIndexOf('/')), true),
      get: call('GET', item),
    }),
  };
  return untyped as unknown as Operations<unknown[], ListOption>;
}
