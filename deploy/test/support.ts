// Reading the deployment files, and what the services' env schemas say about them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { z } from 'zod';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEPLOY_DIR = join(REPO_ROOT, 'deploy');

export const rel = (path: string): string => relative(REPO_ROOT, path);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every .yaml/.yml file under `dir`, sorted, skipping node_modules. */
export function listYamlFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') found.push(...listYamlFiles(path));
    } else if (/\.ya?ml$/.test(entry.name)) {
      found.push(path);
    }
  }
  return found.sort();
}

/**
 * The documents of a YAML file as plain values. Throws on any syntax error or duplicate key.
 * `<<` merge keys are resolved, as Docker Compose does.
 */
export function readYaml(path: string): unknown[] {
  const documents = parseAllDocuments(readFileSync(path, 'utf8'), { merge: true });
  if (!Array.isArray(documents)) return []; // an empty file
  return documents.flatMap((document) => {
    const [error] = document.errors;
    if (error) throw new Error(`${rel(path)}: ${error.message}`);
    const value: unknown = document.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}

// ---- env schemas -------------------------------------------------------------------------------

/**
 * The variable names an env schema knows. A `z.object` (also after `.superRefine`) has `.shape`;
 * for a wrapper (pipe, transform, default) look at the schema it wraps.
 */
export function envKeys(schema: unknown): string[] {
  let current = schema;
  for (let depth = 0; depth < 8 && isRecord(current); depth += 1) {
    if (isRecord(current.shape)) return Object.keys(current.shape);
    const def = isRecord(current._zod) ? current._zod.def : undefined;
    if (!isRecord(def)) break;
    current = def.in ?? def.innerType ?? def.schema;
  }
  throw new Error('envKeys: not a zod object schema, nor a wrapper of one');
}

/** The variables a service cannot start without: those `safeParse({})` reports missing. */
export function requiredEnvKeys(schema: z.ZodType): string[] {
  const result = schema.safeParse({});
  if (result.success) return [];
  return [
    ...new Set(
      result.error.issues
        .filter((issue) => issue.path.length === 1)
        .map((issue) => String(issue.path[0])),
    ),
  ].sort();
}

/** Variables a deployment may set beyond a service's schema. */
export function isAllowedExtra(name: string): boolean {
  // SERVICE picks the service in the image's CMD; OTEL_* are read by the OpenTelemetry SDK.
  return name === 'SERVICE' || name.startsWith('OTEL_');
}

/**
 * Parses a deployment's environment the way the service will (`loadEnv` drops empty values),
 * returning the parsed values or the problems.
 */
export function parseEnv(
  schema: z.ZodType,
  env: Record<string, string>,
): { ok: true; values: Record<string, unknown> } | { ok: false; problems: string[] } {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    return {
      ok: false,
      problems: result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    };
  }
  return { ok: true, values: isRecord(result.data) ? result.data : {} };
}

/** A number the schema produced (ports, timeouts), or a failure naming it. */
export function numberValue(values: Record<string, unknown>, key: string): number {
  const value = values[key];
  if (typeof value !== 'number') throw new Error(`${key} did not parse to a number`);
  return value;
}

/** Go-style durations as Compose writes them (`15s`, `1m30s`) in milliseconds. */
export function durationMs(text: string): number {
  const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) {
    throw new Error(`not a duration: ${text}`);
  }
  return parts.reduce(
    (sum, [, amount, unit]) => sum + Number(amount) * (units[unit ?? ''] ?? 0),
    0,
  );
}

/** The Secret a service reads its credentials from, and no other service reads. */
export const serviceSecretName = (service: string) => `handoff-${service}-secrets`;

// ---- documentation -----------------------------------------------------------------------------

/**
 * The keys of each `kubectl create secret generic <name>` command in a text (Markdown, or YAML
 * comments, whose `#` are dropped), with its `\` continuation lines joined: the keys an operator
 * who copies the command ends up with.
 */
export function documentedSecretCommands(text: string, secretName: string): string[][] {
  const lines = text.split('\n').map((line) => line.replace(/^\s*#+\s?/, ''));
  const commands: string[][] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (!lines[index]?.includes(`create secret generic ${secretName}`)) continue;
    let command = '';
    for (; index < lines.length; index += 1) {
      const line = lines[index] ?? '';
      command += ` ${line.replace(/\\\s*$/, '')}`;
      if (!/\\\s*$/.test(line)) break;
    }
    commands.push(
      [...command.matchAll(/--from-(?:literal|file)=([A-Za-z0-9_.-]+)=/g)].map(
        (match) => match[1] ?? '',
      ),
    );
  }
  return commands;
}

/** The value of `export const NAME = <a> * <b> ...;` in a source file, for byte limits. */
export function constantProduct(path: string, name: string): number {
  const source = readFileSync(path, 'utf8');
  const expression = new RegExp(`export const ${name} = ([\\d_ *]+);`).exec(source)?.[1];
  if (expression === undefined) throw new Error(`${rel(path)} has no numeric ${name}`);
  return expression
    .split('*')
    .map((factor) => Number(factor.trim().replaceAll('_', '')))
    .reduce((product, factor) => product * factor, 1);
}

/** nginx sizes (`64k`, `1m`, `512`) in bytes. */
export function nginxSizeBytes(text: string): number {
  const match = /^(\d+)([kKmMgG]?)$/.exec(text);
  if (!match) throw new Error(`not an nginx size: ${text}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] ?? '').toLowerCase()];
  return Number(match[1]) * (unit ?? 0);
}
