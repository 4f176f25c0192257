// Kubernetes objects: schema validation, a check for unknown fields, and kustomize rendering.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { isRecord, readYaml, rel } from './support.ts';

/** A parsed Kubernetes object; the schemas vouch for the rest of its shape. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export function isKubeObject(value: unknown): value is KubeObject {
  return (
    isRecord(value) &&
    typeof value.apiVersion === 'string' &&
    typeof value.kind === 'string' &&
    isRecord(value.metadata) &&
    typeof value.metadata.name === 'string'
  );
}

export const describeObject = (object: KubeObject): string =>
  `${object.kind} ${object.metadata.name}`;

/** The model packages of custom resources the chart can render, by API group. */
const CUSTOM_RESOURCE_MODELS: Record<string, string> = {
  // PodMonitor, PrometheusRule: the prometheus-operator's CRDs, as its releases define them.
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
};

/**
 * The kubernetes-models module of an object's kind: `kubernetes-models/<group>/<version>/<Kind>`,
 * where the core group is plain `v1` (custom resources: their own package, same layout). Its
 * model class validates against the Kubernetes OpenAPI schema (compiled with Ajv), and its
 * `I<Kind>` interface describes the same schema in TypeScript.
 */
const modelModule = (object: KubeObject): string => {
  const group = object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : undefined;
  const models = (group !== undefined && CUSTOM_RESOURCE_MODELS[group]) || 'kubernetes-models';
  return `${models}/${object.apiVersion}/${object.kind}`;
};

interface Model {
  validate(): void;
}

/** Throws a ValidationError naming the offending path when `object` breaks its kind's schema. */
export async function validateObject(object: KubeObject): Promise<void> {
  let module: unknown;
  try {
    module = await import(modelModule(object));
  } catch (error) {
    throw new Error(
      `${describeObject(object)}: no schema for ${object.apiVersion} ${object.kind}`,
      {
        cause: error,
      },
    );
  }
  const Model = isRecord(module) ? module[object.kind] : undefined;
  if (typeof Model !== 'function') throw new Error(`${modelModule(object)} has no ${object.kind}`);
  const instance: unknown = Reflect.construct(Model, [object]);
  (instance as Model).validate();
}

/**
 * The OpenAPI schemas do not forbid unknown fields, so a misspelt `readinesProbe` would pass
 * them. TypeScript does: each object becomes an object literal typed with its kind's interface,
 * and excess-property errors name every unknown field. Returns one message per problem.
 */
export function unknownFieldErrors(objects: readonly KubeObject[]): string[] {
  // A virtual file beside this one, so that `kubernetes-models` resolves from deploy/.
  const fileName = join(dirname(fileURLToPath(import.meta.url)), '__objects__.ts');
  let text = objects
    .map(
      (object, index) =>
        `import type { I${object.kind} as T${index} } from '${modelModule(object)}';\n`,
    )
    .join('');
  const startLines: number[] = [];
  objects.forEach((object, index) => {
    startLines.push(text.split('\n').length - 1);
    text += `export const o${index}: T${index} = ${JSON.stringify(object, null, 2)};\n`;
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === fileName
      ? ts.createSourceFile(name, text, version)
      : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram({ rootNames: [fileName], options, host });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (diagnostic.file?.fileName !== fileName || diagnostic.start === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const index = startLines.findLastIndex((start) => start <= line);
    const object = objects[index];
    return object ? `${describeObject(object)}: ${message}` : message;
  });
}

// ---- kustomize ---------------------------------------------------------------------------------

interface Target {
  kind?: string;
  name?: string;
  labelSelector?: string;
}

interface JsonPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

export interface Kustomization {
  resources?: string[];
  namespace?: string;
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  replicas?: { name: string; count: number }[];
  patches?: { path: string; target: Target }[];
}

/** The kustomization fields `renderKustomization` implements; anything else fails the test. */
export const KUSTOMIZE_FIELDS = [
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'images',
  'replicas',
  'patches',
];

const CLUSTER_SCOPED = new Set(['Namespace']);
const SCALABLE = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController']);

export function readKustomization(dir: string): Kustomization {
  const [document] = readYaml(join(dir, 'kustomization.yaml'));
  if (!isRecord(document) || document.kind !== 'Kustomization') {
    throw new Error(`${rel(dir)}/kustomization.yaml is not a Kustomization`);
  }
  const unknown = Object.keys(document).filter((key) => !KUSTOMIZE_FIELDS.includes(key));
  if (unknown.length > 0) {
    throw new Error(
      `${rel(dir)}/kustomization.yaml uses ${unknown.join(', ')}, which the manifest test ` +
        'does not render yet: teach renderKustomization in deploy/test/kubernetes.ts',
    );
  }
  return document as Kustomization;
}

/** The files a kustomization names (resources and patches), resolved from its folder. */
export function referencedPaths(dir: string): string[] {
  const kustomization = readKustomization(dir);
  return [
    ...(kustomization.resources ?? []),
    ...(kustomization.patches ?? []).map((patch) => patch.path),
  ].map((path) => join(dir, path));
}

const matches = (object: KubeObject, target: Target): boolean => {
  if (target.kind !== undefined && object.kind !== target.kind) return false;
  if (target.name !== undefined && object.metadata.name !== target.name) return false;
  if (target.labelSelector === undefined) return true;
  return target.labelSelector.split(',').every((term) => {
    const [key = '', value] = term.split('=');
    return object.metadata.labels?.[key.trim()] === value?.trim();
  });
};

function applyJsonPatch(root: unknown, operation: JsonPatchOperation): void {
  const keys = operation.path
    .split('/')
    .slice(1)
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = keys.pop();
  let parent = root;
  for (const key of keys) {
    parent = Array.isArray(parent)
      ? parent[Number(key)]
      : isRecord(parent)
        ? parent[key]
        : undefined;
  }
  if (last === undefined || (!Array.isArray(parent) && !isRecord(parent))) {
    throw new Error(`JSON patch path ${operation.path} does not exist`);
  }
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (operation.op !== 'add' && !(index in parent)) {
      throw new Error(`JSON patch path ${operation.path} does not exist`);
    }
    if (operation.op === 'remove') parent.splice(index, 1);
    else parent.splice(index, operation.op === 'add' ? 0 : 1, structuredClone(operation.value));
    return;
  }
  if (operation.op !== 'add' && !(last in parent)) {
    throw new Error(`JSON patch path ${operation.path} does not exist`);
  }
  if (operation.op === 'remove') Reflect.deleteProperty(parent, last);
  else parent[last] = structuredClone(operation.value);
}

const podContainers = (object: KubeObject): Record<string, unknown>[] => {
  const spec = isRecord(object.spec) ? object.spec : {};
  const template = isRecord(spec.template) ? spec.template : {};
  const podSpec = isRecord(template.spec) ? template.spec : {};
  return [podSpec.containers, podSpec.initContainers].flatMap((list) =>
    Array.isArray(list) ? list.filter(isRecord) : [],
  );
};

/**
 * Renders a kustomization like `kustomize build` does, for the fields in KUSTOMIZE_FIELDS (with
 * JSON 6902 patches only). Stricter than kustomize: a replica count, patch or image rule that
 * matches nothing is an error.
 */
export function renderKustomization(dir: string): KubeObject[] {
  const kustomization = readKustomization(dir);
  const objects: KubeObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    if (existsSync(path) && statSync(path).isDirectory()) {
      objects.push(...renderKustomization(path));
      continue;
    }
    for (const document of readYaml(path)) {
      if (!isKubeObject(document)) throw new Error(`${rel(path)}: not a Kubernetes object`);
      objects.push(document);
    }
  }
  for (const patch of kustomization.patches ?? []) {
    const operations = readYaml(join(dir, patch.path))[0];
    if (!Array.isArray(operations)) throw new Error(`${patch.path}: not a JSON 6902 patch`);
    const targets = objects.filter((object) => matches(object, patch.target));
    if (targets.length === 0) throw new Error(`${patch.path}: its target matches nothing`);
    for (const target of targets) {
      for (const operation of operations as JsonPatchOperation[]) {
        try {
          applyJsonPatch(target, operation);
        } catch (error) {
          throw new Error(
            `${patch.path} on ${describeObject(target)}: ${(error as Error).message}`,
            {
              cause: error,
            },
          );
        }
      }
    }
  }
  if (kustomization.namespace !== undefined) {
    for (const object of objects) {
      if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = kustomization.namespace;
    }
  }
  for (const rule of kustomization.images ?? []) {
    let used = false;
    for (const container of objects.flatMap(podContainers)) {
      if (typeof container.image !== 'string') continue;
      const [, name = '', tag = ''] = /^(.*?)((?::[^/:@]+)?(?:@.+)?)$/.exec(container.image) ?? [];
      if (name !== rule.name) continue;
      const suffix =
        rule.digest !== undefined
          ? `@${rule.digest}`
          : rule.newTag !== undefined
            ? `:${rule.newTag}`
            : tag;
      container.image = `${rule.newName ?? name}${suffix}`;
      used = true;
    }
    if (!used) throw new Error(`image rule ${rule.name} matches no container`);
  }
  for (const rule of kustomization.replicas ?? []) {
    const targets = objects.filter(
      (object) => object.metadata.name === rule.name && SCALABLE.has(object.kind),
    );
    if (targets.length === 0) throw new Error(`replicas rule ${rule.name} matches nothing`);
    for (const target of targets) (target.spec as Record<string, unknown>).replicas = rule.count;
  }
  return objects;
}
