import { REQUEST_TOKEN_HEADER } from '@handoff/contracts';
import { STATUS_TITLES } from '../http/problem.ts';
import type { RouteDefinition } from '../http/route.ts';
import { errorResponses, type SharedResponses } from './error-responses.ts';
import { REQUEST_EXAMPLES } from './examples.ts';
import {
  commonHeaders,
  objectMembers,
  parameterSchema,
  pathParamNames,
  ref,
  schemaOf,
} from './schemas.ts';
import type {
  BuildOptions,
  Header,
  JsonSchema,
  Operation,
  Parameter,
  Reference,
  ResponseObject,
} from './types.ts';

export const isRequestTokenRoute = (route: RouteDefinition): boolean =>
  route.requestToken !== undefined;

function security(route: RouteDefinition): Record<string, string[]>[] {
  switch (route.access.kind) {
    case 'public':
      return [];
    case 'applicant':
      return [{ applicationSecret: [] }];
    case 'staff':
      return [{ staffJwt: [] }];
    case 'agent':
      return [{ agentKey: [...route.access.scopes] }];
    case 'provider':
      return [{ providerKey: [] }, { workspaceSession: [] }];
    case 'workspace':
      return [{ workspaceSession: [] }];
  }
}

function accessNote(route: RouteDefinition, requestToken: boolean): string {
  const { access } = route;
  const who =
    access.kind === 'public'
      ? 'Anyone may call this; it is rate limited per client address.'
      : access.kind === 'applicant'
        ? 'The applicant, with the application secret in `X-Application-Secret`.'
        : access.kind === 'staff'
          ? 'Staff, with a JWT whose `roles` contain `staff`.'
          : access.kind === 'provider'
            ? 'A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.'
            : access.kind === 'workspace'
              ? 'A provider signed in to the workspace: its session cookie (and `X-CSRF-Token` on a change).'
              : access.scopes.length > 0
                ? `An agent key with the scope(s) ${access.scopes.map((s) => `\`${s}\``).join(', ')}.`
                : 'Any valid agent key.';
  return requestToken ? `${who} The request's token goes in \`${REQUEST_TOKEN_HEADER}\`.` : who;
}

/** The operation of one route: its parameters, body, success and every error it can answer. */
export function operationFor(
  route: RouteDefinition,
  defs: Record<string, JsonSchema>,
  registry: SharedResponses,
  options: BuildOptions,
): Operation {
  const requestToken = (options.requestToken ?? isRequestTokenRoute)(route);
  const parameters = parametersOf(route, requestToken, defs);
  const etag = route.headers?.ETag !== undefined;
  const successHeaders: Record<string, Header | Reference> = {
    ...commonHeaders(),
    RateLimit: ref('headers', 'RateLimit'),
    'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
  };
  if (route.method === 'post')
    successHeaders['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
  for (const [name, value] of Object.entries(route.headers ?? {})) {
    successHeaders[name] = {
      description: `Sent with every success of this operation.`,
      required: true,
      schema: { type: 'string' },
      // An ETag changes with the content (and the deployment's settings); the others are fixed.
      ...(name === 'ETag' ? {} : { example: value }),
    };
  }

  const success: ResponseObject = {
    description: STATUS_TITLES[route.status] ?? 'Success',
    headers: successHeaders,
    ...(route.status === 204
      ? {}
      : { content: { 'application/json': { schema: schemaOf(route.response, 'output', defs) } } }),
  };
  const responses: Record<string, ResponseObject | Reference> = route.download
    ? downloadResponses(route.download, successHeaders)
    : { [route.status]: success };
  if (etag && route.method === 'get') {
    responses[304] = {
      description: 'Not Modified: `If-None-Match` named the current `ETag`.',
      headers: commonHeaders(),
    };
  }
  Object.assign(responses, errorResponses(route, requestToken, registry));

  return {
    operationId: route.operationId,
    summary: route.summary,
    description: accessNote(route, requestToken),
    tags: [...route.tags],
    ...(route.deprecated ? { deprecated: true as const } : {}),
    security: security(route),
    parameters,
    ...requestBodyOf(route, defs),
    responses,
  };
}

/** Path, query and header parameters, then the headers every call of this kind may send. */
function parametersOf(
  route: RouteDefinition,
  requestToken: boolean,
  defs: Record<string, JsonSchema>,
): (Parameter | Reference)[] {
  const parameters: (Parameter | Reference)[] = [];

  const pathSchema = route.params ? schemaOf(route.params, 'input', defs) : {};
  const { properties: pathProps } = objectMembers(pathSchema);
  for (const name of pathParamNames(route.path)) {
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: parameterSchema(pathProps[name] ?? { type: 'string' }),
    });
  }
  if (route.query) {
    const { properties, required } = objectMembers(schemaOf(route.query, 'input', defs));
    for (const [name, schema] of Object.entries(properties)) {
      // An upload's file name is made safe, not refused (schema.ts): any character is taken.
      const safened = route.upload !== undefined && name === 'filename';
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        schema: safened ? withoutNulRule(schema) : parameterSchema(schema),
      });
    }
  }
  for (const header of route.requestHeaders ?? []) {
    parameters.push({
      name: header.name,
      in: 'header',
      required: header.required,
      description: header.description,
      schema: { type: 'string' },
    });
  }
  if (requestToken) parameters.push(ref('parameters', REQUEST_TOKEN_HEADER));
  if (route.method === 'post') parameters.push(ref('parameters', 'Idempotency-Key'));
  const etag = route.headers?.ETag !== undefined;
  if (etag && route.method === 'get') parameters.push(ref('parameters', 'If-None-Match'));
  parameters.push(ref('parameters', 'Request-Id'));
  return parameters;
}

// A file of any allowed type; `application/octet-stream` stands for them all (docs/files.md).
const BYTES = {
  'application/octet-stream': {
    schema: { type: 'string', contentMediaType: 'application/octet-stream' },
  },
};

/** The answers of a route that answers with a file's bytes: whole, a range, unchanged. */
function downloadResponses(
  download: NonNullable<RouteDefinition['download']>,
  common: Record<string, Header | Reference>,
): Record<string, ResponseObject | Reference> {
  const fixed = Object.fromEntries(
    Object.entries(download.headers).map(([name, value]) => [
      name,
      {
        description: 'Sent with every answer that carries bytes.',
        required: true,
        schema: { type: 'string' },
        example: value,
      } satisfies Header,
    ]),
  );
  const text = (description: string) => ({ description, schema: { type: 'string' } });
  const headers = {
    ...common,
    ...fixed,
    ETag: text("The file's SHA-256, quoted."),
    'Content-Disposition': text("`attachment`, with the file's safe name (RFC 6266, RFC 5987)."),
    'Cache-Control': text('`private`, for no longer than the URL works.'),
  };
  return {
    200: { description: download.description, headers, content: BYTES },
    206: {
      description: 'Partial Content: the one range `Range` asked for.',
      headers: { ...headers, 'Content-Range': text('`bytes <first>-<last>/<size>`') },
      content: BYTES,
    },
    304: { description: 'Not Modified: `If-None-Match` named the `ETag`.', headers: common },
  };
}

/** A parameter's schema without the rule against NUL that every string of the API has. */
function withoutNulRule(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(
    Object.entries(schema).filter(([key]) => key !== 'pattern' && key !== 'allOf'),
  );
}

/** The body as its schema validates it, or as it arrives unparsed (`rawBody`). */
function requestBodyOf(
  route: RouteDefinition,
  defs: Record<string, JsonSchema>,
): Pick<Operation, 'requestBody'> {
  if (route.body) {
    return {
      requestBody: {
        required: !route.bodyOptional,
        ...(route.bodyOptional ? { description: 'May be left out; it then counts as `{}`.' } : {}),
        content: {
          'application/json': {
            schema: schemaOf(route.body, 'input', defs),
            ...(REQUEST_EXAMPLES[route.operationId] === undefined
              ? {}
              : { example: REQUEST_EXAMPLES[route.operationId] }),
          },
        },
      },
    };
  }
  if (route.upload) {
    return {
      requestBody: {
        required: true,
        description: route.upload.description,
        content: BYTES,
      },
    };
  }
  if (!route.rawBody) return {};
  return {
    requestBody: {
      required: true,
      description: route.rawBody.description,
      content: {
        'application/json': { schema: schemaOf(route.rawBody.schema, 'input', defs) },
      },
    },
  };
}
