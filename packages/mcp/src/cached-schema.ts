import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

type Io = 'input' | 'output';
type Options = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];

/** Each schema's conversions so far, by direction and JSON Schema target. */
const conversions = new WeakMap<object, Map<string, Record<string, unknown>>>();

/**
 * The same schema, whose JSON Schema is converted once per process instead of once per MCP
 * server: a stateless server is built for every HTTP request, and converting the tools' zod
 * schemas (for `tools/list`, and for the header checks before every `tools/call`) was the
 * largest part of building one. Validation is the schema's own.
 */
export function withCachedJsonSchema<I, O>(
  schema: StandardSchemaWithJSON<I, O>,
): StandardSchemaWithJSON<I, O> {
  const standard = schema['~standard'];
  let done = conversions.get(schema);
  if (done === undefined) {
    done = new Map();
    conversions.set(schema, done);
  }
  const known = done;
  const convert = (io: Io) => (options: Options) => {
    // Library options are one caller's own tuning: those conversions are not kept.
    if (options.libraryOptions !== undefined) return standard.jsonSchema[io](options);
    const key = `${io} ${options.target}`;
    let json = known.get(key);
    if (json === undefined) {
      json = standard.jsonSchema[io](options);
      known.set(key, json);
    }
    // A copy each time: whoever gets it may add to it.
    return structuredClone(json);
  };
  return {
    '~standard': {
      ...standard,
      jsonSchema: { input: convert('input'), output: convert('output') },
    },
  };
}
