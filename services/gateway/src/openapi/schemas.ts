import { z } from 'zod';
import { SECURITY_HEADERS } from '../http/security-headers.ts';
import type { JsonSchema, Reference } from './types.ts';

/** Schemas as the document writes them: zod's JSON Schema, references and the gateway's rules. */

export const ref = (kind: 'schemas' | 'parameters' | 'headers', name: string): Reference => ({
  $ref: `#/components/${kind}/${name}`,
});

/** `Request-Id` and the headers every answer carries (see `SECURITY_HEADERS`). */
export const commonHeaders = (): Record<string, Reference> => ({
  'Request-Id': ref('headers', 'Request-Id'),
  ...Object.fromEntries(Object.keys(SECURITY_HEADERS).map((name) => [name, ref('headers', name)])),
});

/**
 * What the gateway refuses in any string before the schema check (`forbidden-characters.ts`):
 * NUL anywhere, and any control character in a path or query value. Written into the document
 * as a `pattern` on every free-form string, so that it states what the API accepts. Member names
 * get no such rule: the gateway leaves them to the schema, and an unknown member of an object that
 * drops them (such as `routing`) is accepted and dropped whatever its name holds.
 */
const NO_NUL = '^[^\\u0000]*$';
const NO_CONTROL = '^[^\\u0000-\\u001F\\u007F]*$';

function withPattern(node: unknown, pattern: string): unknown {
  if (Array.isArray(node)) return node.map((item) => withPattern(item, pattern));
  if (node === null || typeof node !== 'object') return node;
  const object = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      // A problem's `pointer` names what the caller sent, whatever it held: no rule applies.
      key === 'properties' && value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value).map(([name, member]) => [
              name,
              name === 'pointer' ? member : withPattern(member, pattern),
            ]),
          )
        : withPattern(value, pattern),
    ]),
  );
  if (object.type !== 'string' || 'format' in object || 'enum' in object || 'const' in object) {
    return object;
  }
  // A string with a pattern of its own gets this one beside it.
  return 'pattern' in object
    ? { ...object, allOf: [...((object.allOf as unknown[] | undefined) ?? []), { pattern }] }
    : { ...object, pattern };
}

/** A path or query parameter's schema: no control character, whether inline or a reference. */
export function parameterSchema(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref === 'string') return { ...schema, pattern: NO_CONTROL };
  const free = schema.type === 'string' && !('format' in schema) && !('enum' in schema);
  if (!free) return schema;
  // A parameter with a pattern of its own (a category's slug) keeps it, with this one beside it;
  // the rule against NUL alone gives way to this stricter one.
  return 'pattern' in schema && schema.pattern !== NO_NUL
    ? {
        ...schema,
        allOf: [...((schema.allOf as unknown[] | undefined) ?? []), { pattern: NO_CONTROL }],
      }
    : { ...schema, pattern: NO_CONTROL };
}

/** zod → JSON Schema 2020-12, the dialect of OpenAPI 3.1; `$defs` are hoisted into components. */
export function schemaOf(
  schema: z.ZodType,
  io: 'input' | 'output',
  defs: Record<string, JsonSchema>,
): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  const { $defs, ...rest } = withPattern(generated, NO_NUL) as JsonSchema;
  delete rest.$schema;
  if ($defs && typeof $defs === 'object') {
    for (const [name, def] of Object.entries($defs as Record<string, JsonSchema>)) {
      const hoisted = rewriteDefRefs(def) as JsonSchema;
      const existing = defs[name];
      if (existing && JSON.stringify(existing) !== JSON.stringify(hoisted)) {
        throw new Error(`two different schemas are both named ${name}`);
      }
      defs[name] = hoisted;
    }
  }
  return rewriteDefRefs(rest) as JsonSchema;
}

function rewriteDefRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteDefRefs);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
        ? value.replace('#/$defs/', '#/components/schemas/')
        : rewriteDefRefs(value),
    ]),
  );
}

/** The properties of an object schema, intersections (`allOf`) merged. */
export function objectMembers(schema: JsonSchema): {
  properties: Record<string, JsonSchema>;
  required: Set<string>;
} {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const visit = (node: JsonSchema) => {
    Object.assign(properties, (node.properties as Record<string, JsonSchema> | undefined) ?? {});
    for (const name of (node.required as string[] | undefined) ?? []) required.add(name);
    for (const part of (node.allOf as JsonSchema[] | undefined) ?? []) visit(part);
  };
  visit(schema);
  return { properties, required };
}

export const pathParamNames = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
