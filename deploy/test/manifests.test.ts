// The deployment files, checked offline: every Kubernetes object against the Kubernetes schemas
// (kubernetes-models), docker-compose.yml against the Compose specification, and both against
// the code: the list of services and each service's env schema.
import {
  ALL_SERVICES,
  BODY_LIMIT_BYTES,
  type ServiceName,
  WebhookEndpointCreate,
} from '@handoff/contracts';
import { NATS_USERS, natsPermissions } from '@handoff/config/nats-users';
import { conversationEnv } from '@handoff/config/services/conversation';
import { gatewayEnv } from '@handoff/config/services/gateway';
import { intakeEnv } from '@handoff/config/services/intake';
import { milestonesEnv } from '@handoff/config/services/milestones';
import { notificationsEnv } from '@handoff/config/services/notifications';
import { testmodeEnv } from '@handoff/config/services/testmode';
import { paymentsEnv } from '@handoff/config/services/payments';
import { webhookDispatcherEnv } from '@handoff/config/services/webhook-dispatcher';
import { describe, expect, it } from '@jest/globals';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { accountsValues, ACCOUNTS_VALUES } from '../scripts/nats-accounts.ts';
import type { z } from 'zod';
import {
  COMPOSE_FILE,
  composeEnv,
  composeSchemaErrors,
  dependencies,
  healthcheckUrl,
  readCompose,
} from './compose.ts';
import {
  describeObject,
  isKubeObject,
  type KubeObject,
  readKustomization,
  referencedPaths,
  renderKustomization,
  unknownFieldErrors,
  validateObject,
} from './kubernetes.ts';
import {
  constantProduct,
  DEPLOY_DIR,
  documentedSecretCommands,
  isRecord,
  durationMs,
  envKeys,
  isAllowedExtra,
  listYamlFiles,
  nginxSizeBytes,
  numberValue,
  parseEnv,
  readYaml,
  rel,
  REPO_ROOT,
  requiredEnvKeys,
  serviceSecretName,
} from './support.ts';

const ENV_SCHEMAS: Record<ServiceName, z.ZodType> = {
  gateway: gatewayEnv,
  intake: intakeEnv,
  conversation: conversationEnv,
  payments: paymentsEnv,
  milestones: milestonesEnv,
  'webhook-dispatcher': webhookDispatcherEnv,
  notifications: notificationsEnv,
  testmode: testmodeEnv,
};

/** The variable holding the port that serves /healthz and /readyz. */
const healthPortKey = (service: ServiceName) => (service === 'gateway' ? 'PORT' : 'HEALTH_PORT');
const BACKENDS = ALL_SERVICES.filter((service) => service !== 'gateway');
const AUTOSCALED = ['gateway', 'webhook-dispatcher'];

const BASE_DIR = join(DEPLOY_DIR, 'base');
const SECRET_EXAMPLE = join(BASE_DIR, 'secret.example.yaml');
const KUSTOMIZATIONS = ['base', 'overlays/production'];

/**
 * Kubernetes YAML: everything under deploy/ but the Helm chart (templates are not YAML until
 * rendered; helm.test.ts renders them) and the dependencies' chart values (checked below).
 */
const NOT_MANIFESTS = ['dependencies', 'helm'].map((dir) => join(DEPLOY_DIR, dir));
const yamlFiles = listYamlFiles(DEPLOY_DIR).filter(
  (path) => !NOT_MANIFESTS.some((dir) => path.startsWith(`${dir}/`)),
);
const kustomizationDirs = yamlFiles
  .filter((path) => basename(path) === 'kustomization.yaml')
  .map((path) => dirname(path));
const patchFiles = new Set(
  kustomizationDirs.flatMap((dir) =>
    (readKustomization(dir).patches ?? []).map((patch) => join(dir, patch.path)),
  ),
);

const rendered = new Map<string, KubeObject[]>();
/** `kustomize build deploy/<dir>`, rendered once. */
function render(dir: string): KubeObject[] {
  let objects = rendered.get(dir);
  if (!objects) {
    objects = renderKustomization(join(DEPLOY_DIR, dir));
    rendered.set(dir, objects);
  }
  return objects;
}

function ofKind<T extends { kind: string }>(
  objects: readonly KubeObject[],
  kind: T['kind'],
): (KubeObject & T)[] {
  return objects.filter((object): object is KubeObject & T => object.kind === kind);
}

function deploymentOf(objects: readonly KubeObject[], service: string): KubeObject & IDeployment {
  const deployment = ofKind<IDeployment>(objects, 'Deployment').find(
    (object) => object.metadata.name === service,
  );
  if (!deployment) throw new Error(`no Deployment ${service}`);
  return deployment;
}

function containerOf(deployment: IDeployment): IContainer {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  expect(containers).toHaveLength(1);
  const [container] = containers;
  if (!container) throw new Error(`Deployment ${deployment.metadata?.name} has no container`);
  return container;
}

const podLabels = (deployment: IDeployment): Record<string, string> =>
  deployment.spec?.template.metadata?.labels ?? {};

const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  Object.entries(selector ?? {}).every(([key, value]) => labels[key] === value);

/** The example Secrets that operators create (one per service): name → keys and values. */
function exampleSecrets(): Map<string, Record<string, string>> {
  const secrets = new Map<string, Record<string, string>>();
  for (const object of readYaml(SECRET_EXAMPLE).filter(isKubeObject)) {
    if (object.kind !== 'Secret') throw new Error('secret.example.yaml holds a non-Secret');
    const { stringData = {}, data = {} } = object as KubeObject & ISecret;
    const decoded = Object.entries(data).map(([key, value]) => [
      key,
      Buffer.from(value, 'base64').toString('utf8'),
    ]);
    secrets.set(object.metadata.name, { ...Object.fromEntries(decoded), ...stringData });
  }
  return secrets;
}

/**
 * A container's environment as the kubelet would build it: literal values, ConfigMap keys from
 * the rendered objects and Secret keys from the Secrets of secret.example.yaml. Unresolvable references are
 * listed as problems.
 */
function containerEnv(container: IContainer, objects: readonly KubeObject[]) {
  const secrets = exampleSecrets();
  const configMap = (name: string) =>
    ofKind<IConfigMap>(objects, 'ConfigMap').find((object) => object.metadata.name === name)?.data;
  const values: Record<string, string> = {};
  const problems: string[] = [];
  const source = (kind: string, name: string | undefined) =>
    kind === 'ConfigMap' ? configMap(name ?? '') : secrets.get(name ?? '');
  for (const entry of container.env ?? []) {
    const from = entry.valueFrom;
    const reference = from?.configMapKeyRef
      ? { kind: 'ConfigMap', ...from.configMapKeyRef }
      : from?.secretKeyRef
        ? { kind: 'Secret', ...from.secretKeyRef }
        : undefined;
    if (from === undefined) {
      values[entry.name] = entry.value ?? '';
    } else if (reference === undefined) {
      problems.push(`${entry.name}: only value, configMapKeyRef and secretKeyRef are checked`);
    } else {
      const value = source(reference.kind, reference.name)?.[reference.key];
      if (value === undefined) {
        problems.push(`${entry.name}: ${reference.kind} ${reference.name} has no ${reference.key}`);
      } else {
        values[entry.name] = value;
      }
    }
  }
  for (const from of container.envFrom ?? []) {
    const [kind, name] = from.configMapRef
      ? ['ConfigMap', from.configMapRef.name]
      : ['Secret', from.secretRef?.name];
    const data = source(kind, name);
    if (data === undefined) problems.push(`envFrom: no ${kind} ${name}`);
    for (const [key, value] of Object.entries(data ?? {})) {
      values[`${from.prefix ?? ''}${key}`] = value;
    }
  }
  return { values, problems };
}

/** Checks one deployment's environment against the service's schema; returns the parsed env. */
function expectEnvAgrees(
  service: ServiceName,
  env: Record<string, string>,
  where: string,
): Record<string, unknown> {
  const schema = ENV_SCHEMAS[service];
  const known = envKeys(schema);
  const unknown = Object.keys(env).filter((name) => !known.includes(name) && !isAllowedExtra(name));
  expect({ where, unknown }).toEqual({ where, unknown: [] });
  const missing = requiredEnvKeys(schema).filter((name) => !env[name]);
  expect({ where, missing }).toEqual({ where, missing: [] });
  const parsed = parseEnv(schema, env);
  if (!parsed.ok) {
    throw new Error(
      `${where}: the ${service} env schema rejects it:\n${parsed.problems.join('\n')}`,
    );
  }
  return parsed.values;
}

// ---- (a) every file parses and every object validates ----------------------------------------

describe('YAML under deploy/', () => {
  it('finds the kustomizations and their files', () => {
    expect(kustomizationDirs.map(rel)).toEqual(KUSTOMIZATIONS.map((dir) => `deploy/${dir}`));
    expect(yamlFiles.length).toBeGreaterThan(KUSTOMIZATIONS.length);
  });

  it.each(yamlFiles.map(rel))('%s parses, and each object matches its schema', async (file) => {
    const path = join(REPO_ROOT, file);
    const documents = readYaml(path);
    expect(documents.length).toBeGreaterThan(0);
    if (basename(path) === 'kustomization.yaml') {
      for (const referenced of referencedPaths(dirname(path))) {
        expect({ referenced: rel(referenced), exists: existsSync(referenced) }).toEqual({
          referenced: rel(referenced),
          exists: true,
        });
      }
      return;
    }
    if (patchFiles.has(path)) {
      const [operations] = documents;
      expect(Array.isArray(operations)).toBe(true);
      for (const operation of operations as unknown[]) {
        expect(operation).toMatchObject({ op: expect.any(String), path: expect.any(String) });
      }
      return;
    }
    for (const document of documents) {
      if (!isKubeObject(document)) {
        throw new Error(`${file}: a document is not a Kubernetes object`);
      }
      await validateObject(document);
    }
  });

  it('has no field that its schema does not define (which the schemas alone allow)', () => {
    const fromFiles = yamlFiles
      .filter((path) => basename(path) !== 'kustomization.yaml' && !patchFiles.has(path))
      .flatMap((path) => readYaml(path).filter(isKubeObject));
    const fromRenders = KUSTOMIZATIONS.flatMap((dir) => render(dir));
    expect(unknownFieldErrors([...fromFiles, ...fromRenders])).toEqual([]);
  });
});

describe('the validators reject broken objects', () => {
  const gateway = () => structuredClone(deploymentOf(render('base'), 'gateway'));

  it('rejects a Deployment whose replicas is not an integer', async () => {
    const broken = gateway();
    Object.assign(broken.spec ?? {}, { replicas: 'two' });
    await expect(validateObject(broken)).rejects.toThrow('data/spec/replicas must be integer');
  });

  it('rejects a container without its required name', async () => {
    const broken = gateway();
    delete (containerOf(broken) as Partial<IContainer>).name;
    await expect(validateObject(broken)).rejects.toThrow(
      'data/spec/template/spec/containers/0 must have required property name',
    );
  });

  it('rejects a kind it has no schema for', async () => {
    const broken = { ...gateway(), apiVersion: 'apps/v1beta9' };
    await expect(validateObject(broken)).rejects.toThrow(/no schema for apps\/v1beta9/);
  });

  it('reports a misspelt field', () => {
    const broken = gateway();
    Object.assign(containerOf(broken), { readinesProbe: { periodSeconds: 5 } });
    expect(unknownFieldErrors([broken]).join('\n')).toMatch(
      /readinesProbe.*does not exist in type 'IContainer'/,
    );
  });

  it('rejects a Compose file with an unknown key', () => {
    const compose = structuredClone(readCompose()) as unknown as Record<string, unknown>;
    Object.assign(compose, { servics: {} });
    expect(composeSchemaErrors(compose).join('\n')).toMatch(/additional properties/);
  });
});

// ---- kustomize ---------------------------------------------------------------------------------

describe('kustomizations', () => {
  it('list every object file of the base, and not the example Secret', () => {
    const listed = referencedPaths(BASE_DIR);
    const objectFiles = listYamlFiles(BASE_DIR).filter(
      (path) => basename(path) !== 'kustomization.yaml',
    );
    expect(objectFiles.filter((path) => !listed.includes(path)).map(rel)).toEqual([
      rel(SECRET_EXAMPLE),
    ]);
  });

  it.each(KUSTOMIZATIONS)('%s renders to valid objects in namespace handoff', async (dir) => {
    const objects = render(dir);
    for (const object of objects) await validateObject(object);
    const ids = objects.map(describeObject);
    expect(new Set(ids).size).toBe(ids.length);
    expect(objects.filter((object) => object.kind === 'Secret').map(describeObject)).toEqual([]);
    for (const object of objects) {
      if (object.kind !== 'Namespace') expect(object.metadata.namespace).toBe('handoff');
    }
  });

  // The renderer above implements a subset of kustomize; where kubectl is installed, compare.
  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  it.each(KUSTOMIZATIONS)('%s renders as `kubectl kustomize` does, where kubectl exists', (dir) => {
    if (kubectl.status !== 0) {
      console.warn('kubectl is not installed: skipping the comparison with kubectl kustomize');
      return;
    }
    const result = spawnSync('kubectl', ['kustomize', join(DEPLOY_DIR, dir)], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`kubectl kustomize failed:\n${result.stderr}`);
    const theirs = parseAllDocuments(result.stdout).map((document) => document.toJS() as unknown);
    const key = (object: unknown) => (isKubeObject(object) ? describeObject(object) : '');
    const sort = (objects: unknown[]) => [...objects].sort((a, b) => key(a).localeCompare(key(b)));
    expect(sort(render(dir))).toEqual(sort(theirs));
  });
});

// ---- (b) Compose, Kubernetes and the code agree -----------------------------------------------

describe('docker-compose.yml', () => {
  const compose = readCompose();

  it('matches the Compose specification', () => {
    expect(composeSchemaErrors(readYaml(COMPOSE_FILE)[0])).toEqual([]);
  });

  it('runs exactly the services in ALL_SERVICES, besides mongo, nats and mailpit', () => {
    const services = Object.keys(compose.services).filter(
      (name) => !['mongo', 'nats', 'mailpit'].includes(name),
    );
    expect(services.sort()).toEqual([...ALL_SERVICES].sort());
  });

  it('hands mail to the Mailpit release that scripts/setup.sh builds for npm start and the tests', () => {
    const setup = readFileSync(join(REPO_ROOT, 'scripts', 'setup.sh'), 'utf8');
    const version = /^MAILPIT_VERSION="(v[\d.]+)"$/m.exec(setup)?.[1];
    expect(version).toBeDefined();
    expect(compose.services.mailpit?.image).toBe(`axllent/mailpit:${version}`);
    const notifications = composeEnv(compose.services.notifications ?? {});
    const smtp = new URL(notifications.SMTP_URL ?? '');
    expect({ host: smtp.hostname, port: smtp.port }).toEqual({ host: 'mailpit', port: '1025' });
  });

  it.each(ALL_SERVICES)('%s: build, environment, healthcheck and start order', (service) => {
    const definition = compose.services[service];
    if (!definition) throw new Error(`no compose service ${service}`);
    expect(definition.build).toEqual({ context: '.', args: { SERVICE: service } });

    const env = expectEnvAgrees(service, composeEnv(definition), `compose ${service}`);
    const url = healthcheckUrl(definition);
    expect(url?.port).toBe(String(numberValue(env, healthPortKey(service))));
    expect(url?.pathname).toBe(service === 'gateway' ? '/healthz' : '/readyz');
    expect(durationMs(definition.stop_grace_period ?? '10s')).toBeGreaterThan(
      numberValue(env, 'SHUTDOWN_TIMEOUT_MS'),
    );

    const healthy = (names: readonly string[]) =>
      Object.fromEntries(names.map((name) => [name, 'service_healthy']));
    expect(dependencies(definition)).toEqual(
      service === 'gateway'
        ? healthy(['nats', ...BACKENDS])
        : healthy(service === 'notifications' ? ['mongo', 'nats', 'mailpit'] : ['mongo', 'nats']),
    );
  });
});

describe.each(KUSTOMIZATIONS)('Kubernetes %s', (dir) => {
  const objects = () => render(dir);

  it('has one Deployment per service in ALL_SERVICES', () => {
    const names = ofKind<IDeployment>(objects(), 'Deployment').map(
      (object) => object.metadata.name,
    );
    expect(names.sort()).toEqual([...ALL_SERVICES].sort());
  });

  it.each(ALL_SERVICES)('%s: environment agrees with the env schema', (service) => {
    const container = containerOf(deploymentOf(objects(), service));
    const { values, problems } = containerEnv(container, objects());
    expect(problems).toEqual([]);
    expect(values.SERVICE).toBe(service);
    expectEnvAgrees(service, values, `${dir} Deployment ${service}`);
  });

  it.each(ALL_SERVICES)('%s: probes, ports, shutdown, resources and security', (service) => {
    const deployment = deploymentOf(objects(), service);
    const pod = deployment.spec?.template.spec;
    const container = containerOf(deployment);
    const env = expectEnvAgrees(service, containerEnv(container, objects()).values, service);

    expect(container.image).toMatch(/^ghcr\.io\/handoff\/handoff[:@]/);
    const port = numberValue(env, healthPortKey(service));
    const portOf = (name: unknown) =>
      container.ports?.find((entry) => entry.name === name)?.containerPort ?? name;
    for (const [probe, path] of [
      [container.startupProbe, '/healthz'],
      [container.livenessProbe, '/healthz'],
      [container.readinessProbe, '/readyz'],
    ] as const) {
      expect(probe?.httpGet?.path).toBe(path);
      expect(portOf(probe?.httpGet?.port)).toBe(port);
    }
    if (service === 'gateway') {
      // /readyz waits up to READINESS_TIMEOUT_MS for the backends' replies.
      expect((container.readinessProbe?.timeoutSeconds ?? 1) * 1000).toBeGreaterThan(
        numberValue(env, 'READINESS_TIMEOUT_MS'),
      );
    }

    const preStopMs = (container.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
    expect((pod?.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(
      preStopMs + numberValue(env, 'SHUTDOWN_TIMEOUT_MS'),
    );

    for (const kind of ['requests', 'limits'] as const) {
      expect(Object.keys(container.resources?.[kind] ?? {}).sort()).toEqual(['cpu', 'memory']);
    }
    expect(pod?.automountServiceAccountToken).toBe(false);
    expect(pod?.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('gives every Deployment a PodDisruptionBudget, and autoscales gateway and webhook-dispatcher', () => {
    const deployments = ofKind<IDeployment>(objects(), 'Deployment');
    const budgets = ofKind<IPodDisruptionBudget>(objects(), 'PodDisruptionBudget');
    const autoscalers = ofKind<IHorizontalPodAutoscaler>(objects(), 'HorizontalPodAutoscaler');
    for (const deployment of deployments) {
      const covering = budgets.filter((budget) =>
        selects(budget.spec?.selector?.matchLabels, podLabels(deployment)),
      );
      expect({ deployment: deployment.metadata.name, budgets: covering.length }).toEqual({
        deployment: deployment.metadata.name,
        budgets: 1,
      });
    }
    expect(autoscalers.map((hpa) => hpa.spec?.scaleTargetRef.name).sort()).toEqual(AUTOSCALED);
    for (const hpa of autoscalers) {
      expect(hpa.spec?.scaleTargetRef).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
      expect(hpa.spec?.minReplicas ?? 1).toBeLessThanOrEqual(hpa.spec?.maxReplicas ?? 0);
      // A replica count in the Deployment would fight the autoscaler on every apply.
      const target = deploymentOf(objects(), hpa.spec?.scaleTargetRef.name ?? '');
      expect({ target: target.metadata.name, replicas: target.spec?.replicas }).toEqual({
        target: target.metadata.name,
        replicas: undefined,
      });
    }
    if (dir === 'overlays/production') {
      // Production keeps at least two pods of everything, so a drain or a crash is no outage.
      const single = deployments.filter((deployment) => {
        const hpa = autoscalers.find(
          (a) => a.spec?.scaleTargetRef.name === deployment.metadata.name,
        );
        return (hpa ? (hpa.spec?.minReplicas ?? 1) : (deployment.spec?.replicas ?? 1)) < 2;
      });
      expect(single.map(describeObject)).toEqual([]);
    }
  });

  it('routes the gateway Service to the gateway container port', () => {
    const gateway = deploymentOf(objects(), 'gateway');
    const [service, ...others] = ofKind<IService>(objects(), 'Service');
    expect(others).toEqual([]);
    expect(service?.metadata.name).toBe('gateway');
    expect(selects(service?.spec?.selector, podLabels(gateway))).toBe(true);
    const names = (containerOf(gateway).ports ?? []).map((port) => port.name);
    for (const port of service?.spec?.ports ?? []) expect(names).toContain(port.targetPort);
  });

  it('denies traffic by default and allows what each service needs', () => {
    const policies = ofKind<INetworkPolicy>(objects(), 'NetworkPolicy');
    const deployments = ofKind<IDeployment>(objects(), 'Deployment');
    const denyAll = policies.find(
      (policy) => Object.keys(policy.spec?.podSelector ?? {}).length === 0,
    );
    expect(denyAll?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });

    for (const policy of policies) {
      const selected = deployments.filter((deployment) =>
        selects(policy.spec?.podSelector?.matchLabels, podLabels(deployment)),
      );
      expect({ policy: policy.metadata.name, selects: selected.length > 0 }).toEqual({
        policy: policy.metadata.name,
        selects: true,
      });
    }

    const allowed = (deployment: IDeployment, direction: 'ingress' | 'egress') =>
      policies
        .filter((policy) => selects(policy.spec?.podSelector?.matchLabels, podLabels(deployment)))
        .flatMap((policy) => policy.spec?.[direction] ?? [])
        .flatMap((rule) => rule.ports ?? [])
        // A port entry without `port` allows every port of its protocol.
        .map((port) => `${port.protocol ?? 'TCP'}/${port.port ?? '*'}`);
    const needs: Record<ServiceName, string[]> = {
      gateway: ['UDP/53', 'TCP/4222'],
      intake: ['UDP/53', 'TCP/4222', 'TCP/27017'],
      conversation: ['UDP/53', 'TCP/4222', 'TCP/27017'],
      payments: ['UDP/53', 'TCP/4222', 'TCP/27017'],
      milestones: ['UDP/53', 'TCP/4222', 'TCP/27017'],
      // Any port: endpoint registration accepts https URLs on any port (checked below).
      'webhook-dispatcher': ['UDP/53', 'TCP/4222', 'TCP/27017', 'TCP/*'],
      // SMTP: submission with STARTTLS, and TLS from the first byte (checked below).
      notifications: ['UDP/53', 'TCP/4222', 'TCP/27017', 'TCP/587', 'TCP/465'],
      testmode: ['UDP/53', 'TCP/4222', 'TCP/27017'],
    };
    for (const service of ALL_SERVICES) {
      const deployment = deploymentOf(objects(), service);
      const missing = needs[service].filter(
        (port) => !allowed(deployment, 'egress').includes(port),
      );
      expect({ service, missing }).toEqual({ service, missing: [] });
      const ingress = allowed(deployment, 'ingress');
      const clientPort = containerOf(deployment).ports?.find((port) => port.name === 'http');
      expect({ service, ingress }).toEqual({
        service,
        ingress: service === 'gateway' ? [`TCP/${clientPort?.containerPort}`] : [],
      });
    }
  });
});

// ---- (c) what a pod cannot start without ------------------------------------------------------

/**
 * Where operators are told how to create the Secret: every `kubectl create secret` command in
 * these files must create every key a pod needs, or the pod never starts.
 */
const SECRET_DOCS = [
  'README.md',
  'deploy/README.md',
  'deploy/base/secret.example.yaml',
  'deploy/helm/handoff/README.md',
];

/** Each documented `kubectl create secret` command: where, for which Secret, which keys. */
function documentedSecrets(): { where: string; secret: string; keys: string[] }[] {
  return SECRET_DOCS.flatMap((file) =>
    ALL_SERVICES.map(serviceSecretName).flatMap((secret) =>
      documentedSecretCommands(readFileSync(join(REPO_ROOT, file), 'utf8'), secret).map(
        (keys, index) => ({ where: `${file} (${secret}, command ${index + 1})`, secret, keys }),
      ),
    ),
  );
}

/** The Secrets a Deployment's container refers to, by env and by envFrom. */
function secretsReferenced(deployment: IDeployment): string[] {
  const container = containerOf(deployment);
  const names = [
    ...(container.env ?? []).map((entry) => entry.valueFrom?.secretKeyRef?.name),
    ...(container.envFrom ?? []).map((from) => from.secretRef?.name),
    ...(deployment.spec?.template.spec?.volumes ?? []).map((volume) => volume.secret?.secretName),
  ];
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}

/**
 * ConfigMap keys no service reads yet: the code that reads them lands in another change, and
 * then the test below insists that each Deployment whose schema knows the key reads it.
 */
const PENDING_CONFIG_KEYS: string[] = [];

describe('the Secrets', () => {
  it.each(KUSTOMIZATIONS)('%s: each Deployment refers to its own Secret and to no other', (dir) => {
    const deployments = ofKind<IDeployment>(render(dir), 'Deployment');
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual(
      [...ALL_SERVICES].sort(),
    );
    for (const deployment of deployments) {
      const service = deployment.metadata.name;
      expect({ service, secrets: secretsReferenced(deployment) }).toEqual({
        service,
        secrets: [serviceSecretName(service)],
      });
    }
  });

  it('have an example each, holding only keys its service reads from it', () => {
    const examples = exampleSecrets();
    expect([...examples.keys()].sort()).toEqual(ALL_SERVICES.map(serviceSecretName).sort());
    for (const service of ALL_SERVICES) {
      const read = (containerOf(deploymentOf(render('base'), service)).env ?? []).flatMap(
        (entry) => entry.valueFrom?.secretKeyRef?.key ?? [],
      );
      const keys = Object.keys(examples.get(serviceSecretName(service)) ?? {});
      expect({ service, keys: keys.sort() }).toEqual({ service, keys: read.sort() });
    }
  });
});

describe('the Secret commands in the docs', () => {
  it("are there in each file that explains the Secrets, one for each service's", () => {
    const found = new Set(
      documentedSecrets().map(({ where }) => where.replace(/, command.*$/, '')),
    );
    const expected = SECRET_DOCS.flatMap((file) =>
      ALL_SERVICES.map((service) => `${file} (${serviceSecretName(service)}`),
    );
    expect([...found].sort()).toEqual(expected.sort());
  });

  it.each(KUSTOMIZATIONS)(
    "create every key that a %s Deployment needs (non-optional secretKeyRef) in its service's Secret",
    (dir) => {
      const needed = new Map<string, Set<string>>();
      for (const deployment of ofKind<IDeployment>(render(dir), 'Deployment')) {
        for (const entry of containerOf(deployment).env ?? []) {
          const ref = entry.valueFrom?.secretKeyRef;
          if (ref && ref.optional !== true) {
            const keys = needed.get(ref.name ?? '') ?? new Set<string>();
            needed.set(ref.name ?? '', keys.add(ref.key));
          }
        }
      }
      expect([...(needed.get(serviceSecretName('gateway')) ?? [])].sort()).toEqual([
        'A2A_TOKENS_KEY',
        // Without it each replica would sign with its own key, and a URL fail on the others.
        'FILE_URLS_KEY',
        'NATS_PASSWORD',
        'STAFF_JWT_SECRET',
      ]);
      expect([...(needed.get(serviceSecretName('webhook-dispatcher')) ?? [])].sort()).toEqual([
        'MONGO_URL',
        'NATS_PASSWORD',
        'WEBHOOK_SECRETS_KEY',
      ]);
      // SMTP_URL holds the SMTP server's credentials, so it is a secret, not a setting.
      expect([...(needed.get(serviceSecretName('notifications')) ?? [])].sort()).toEqual([
        'MONGO_URL',
        'NATS_PASSWORD',
        'NOTIFICATIONS_SIGNING_KEY',
        'SMTP_URL',
      ]);
      const examples = exampleSecrets();
      const gaps = [
        ...[...examples].map(([secret, data]) => ({
          where: `secret.example.yaml (${secret})`,
          secret,
          keys: Object.keys(data),
        })),
        ...documentedSecrets(),
      ].flatMap(({ where, secret, keys }) =>
        [...(needed.get(secret) ?? [])]
          .filter((key) => !keys.includes(key))
          .map((key) => `${where}: ${key}`),
      );
      expect(gaps).toEqual([]);
    },
  );
});

describe.each(KUSTOMIZATIONS)('Kubernetes %s: required variables', (dir) => {
  const objects = () => render(dir);

  it.each(ALL_SERVICES)(
    '%s: each variable without a default in the env schema is set, from the ConfigMap or the documented Secret',
    (service) => {
      const container = containerOf(deploymentOf(objects(), service));
      const configMap = (name: string) =>
        ofKind<IConfigMap>(objects(), 'ConfigMap').find((object) => object.metadata.name === name)
          ?.data ?? {};
      const documented = documentedSecrets();
      const problems: string[] = [];
      for (const name of requiredEnvKeys(ENV_SCHEMAS[service])) {
        const entry = container.env?.find((candidate) => candidate.name === name);
        const fromConfig = entry?.valueFrom?.configMapKeyRef;
        const fromSecret = entry?.valueFrom?.secretKeyRef;
        if (entry === undefined) {
          problems.push(`${name}: not set`);
        } else if (entry.value !== undefined) {
          if (entry.value === '') problems.push(`${name}: empty`);
        } else if (fromConfig) {
          if (fromConfig.optional === true) problems.push(`${name}: optional ConfigMap key`);
          if (!configMap(fromConfig.name ?? '')[fromConfig.key]) {
            problems.push(`${name}: ConfigMap ${fromConfig.name} has no ${fromConfig.key}`);
          }
        } else if (fromSecret) {
          if (fromSecret.optional === true) problems.push(`${name}: optional Secret key`);
          if (fromSecret.name !== serviceSecretName(service)) {
            problems.push(`${name}: Secret ${fromSecret.name}`);
          }
          for (const { where, secret, keys } of documented) {
            if (secret === fromSecret.name && !keys.includes(fromSecret.key)) {
              problems.push(`${name}: ${where} leaves it out`);
            }
          }
        } else {
          problems.push(`${name}: neither a value nor a ConfigMap or Secret key`);
        }
      }
      expect({ service, problems }).toEqual({ service, problems: [] });
    },
  );

  it('gives each ConfigMap key to exactly the services whose env schema knows it', () => {
    const deployments = ofKind<IDeployment>(objects(), 'Deployment');
    const [configMap, ...others] = ofKind<IConfigMap>(objects(), 'ConfigMap');
    expect(others).toEqual([]);
    for (const key of Object.keys(configMap?.data ?? {})) {
      const readers = deployments
        .filter((deployment) =>
          (containerOf(deployment).env ?? []).some(
            (entry) => entry.valueFrom?.configMapKeyRef?.key === key,
          ),
        )
        .map((deployment) => deployment.metadata.name)
        .sort();
      const knowers = ALL_SERVICES.filter((service) =>
        envKeys(ENV_SCHEMAS[service]).includes(key),
      ).sort();
      if (PENDING_CONFIG_KEYS.includes(key) && knowers.length === 0) {
        expect({ key, readers }).toEqual({ key, readers: [] });
      } else {
        expect({ key, readers }).toEqual({ key, readers: knowers });
      }
    }
  });

  it('keys NATS_STREAM_REPLICAS to the NATS cluster size: 1 in the base, 3 in production', () => {
    const [configMap] = ofKind<IConfigMap>(objects(), 'ConfigMap');
    expect(configMap?.data?.NATS_STREAM_REPLICAS).toBe(dir === 'base' ? '1' : '3');
  });

  it('trusts X-Forwarded-For only when only an ingress controller reaches the gateway', () => {
    const [configMap] = ofKind<IConfigMap>(objects(), 'ConfigMap');
    const trustProxy = configMap?.data?.TRUST_PROXY;
    expect(trustProxy).toBe(dir === 'base' ? 'false' : 'true');
    const policy = ofKind<INetworkPolicy>(objects(), 'NetworkPolicy').find(
      (object) => object.metadata.name === 'gateway-ingress',
    );
    const rules = policy?.spec?.ingress ?? [];
    expect(rules.length).toBeGreaterThan(0);
    if (trustProxy === 'true') {
      for (const rule of rules) {
        expect(rule.from?.length ?? 0).toBeGreaterThan(0);
        for (const peer of rule.from ?? []) {
          expect(peer.ipBlock).toBeUndefined();
          expect(peer.namespaceSelector?.matchLabels).toBeDefined();
        }
      }
      expect(ofKind<IIngress>(objects(), 'Ingress').length).toBeGreaterThan(0);
    }
  });
});

/**
 * The gateway's upload operations (their body is a file's bytes, not JSON), from its OpenAPI
 * document, as ingress-nginx regular expressions.
 */
function gatewayUploadPaths(): string[] {
  const document = JSON.parse(
    readFileSync(join(REPO_ROOT, 'services/gateway/openapi.json'), 'utf8'),
  ) as { paths: Record<string, Record<string, { requestBody?: { content?: object } }>> };
  return Object.entries(document.paths)
    .filter(([, operations]) =>
      Object.values(operations).some(
        (operation) =>
          operation.requestBody !== undefined &&
          !Object.keys(operation.requestBody.content ?? {}).includes('application/json'),
      ),
    )
    .map(([path]) => `${path.replace(/\{[^}]+\}/g, '[^/]+')}$`)
    .sort();
}

describe('the production Ingress', () => {
  const objects = () => render('overlays/production');
  const gatewaySource = (file: string) => join(REPO_ROOT, 'services/gateway/src', file);

  it('routes to the gateway Service with the gateway body limits and timeouts', () => {
    const ingresses = ofKind<IIngress>(objects(), 'Ingress');
    const gateway = containerOf(deploymentOf(objects(), 'gateway'));
    const env = expectEnvAgrees('gateway', containerEnv(gateway, objects()).values, 'gateway');
    const apiLimit = BODY_LIMIT_BYTES;
    const fileLimit = Math.max(
      ...(['conversation', 'milestones'] as const).map((service) =>
        numberValue(
          expectEnvAgrees(
            service,
            containerEnv(containerOf(deploymentOf(objects(), service)), objects()).values,
            service,
          ),
          'FILES_MAX_FILE_BYTES',
        ),
      ),
    );
    const uploadPaths = gatewayUploadPaths();
    expect(uploadPaths).toHaveLength(3);
    const stripeLimit = constantProduct(
      gatewaySource('routes/stripe.ts'),
      'STRIPE_WEBHOOK_LIMIT_BYTES',
    );
    expect(apiLimit).toBe(64 * 1024);
    const paths = new Set<string>();
    for (const ingress of ingresses) {
      const annotations = ingress.metadata.annotations ?? {};
      const rulePaths = (ingress.spec?.rules ?? []).flatMap((rule) => rule.http?.paths ?? []);
      for (const path of rulePaths) {
        paths.add(path.path ?? '');
        expect(path.backend.service).toEqual({ name: 'gateway', port: { name: 'http' } });
      }
      const stripe = rulePaths.every((path) => path.path === '/v1/webhooks/stripe');
      const uploads = rulePaths.every((path) => uploadPaths.includes(path.path ?? ''));
      const limit = stripe ? stripeLimit : uploads ? fileLimit : apiLimit;
      expect({
        ingress: ingress.metadata.name,
        bytes: nginxSizeBytes(annotations['nginx.ingress.kubernetes.io/proxy-body-size'] ?? ''),
      }).toEqual({ ingress: ingress.metadata.name, bytes: limit });
      if (uploads) {
        // Streamed to the gateway as they come, not spooled whole by nginx first; the paths
        // are regular expressions.
        expect(annotations).toMatchObject({
          'nginx.ingress.kubernetes.io/proxy-request-buffering': 'off',
          'nginx.ingress.kubernetes.io/use-regex': 'true',
        });
      }
      // nginx must wait longer than the gateway does for a backend, so that the gateway's 503
      // (with its request id) reaches the client rather than nginx's 504.
      const readTimeoutS = Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']);
      expect(readTimeoutS * 1000).toBeGreaterThan(numberValue(env, 'BUS_TIMEOUT_MS'));
    }
    expect([...paths].sort()).toEqual(['/', '/v1/webhooks/stripe', ...uploadPaths].sort());
  });
});

describe('webhook-dispatcher egress', () => {
  it('allows the ports that endpoint registration accepts', () => {
    // An https URL on a port other than 443 registers; the NetworkPolicy must let it out.
    expect(
      WebhookEndpointCreate.safeParse({ url: 'https://hooks.example.com:8443/handoff' }).success,
    ).toBe(true);
    for (const dir of KUSTOMIZATIONS) {
      const policy = ofKind<INetworkPolicy>(render(dir), 'NetworkPolicy').find(
        (object) => object.metadata.name === 'webhook-dispatcher-internet-egress',
      );
      const ports = (policy?.spec?.egress ?? []).flatMap((rule) => rule.ports ?? []);
      expect(ports).toEqual([{ protocol: 'TCP' }]);
    }
  });
});

describe('notifications egress', () => {
  it("allows the example SMTP_URL's port, and both SMTP ports a server listens on", () => {
    const smtpUrl = exampleSecrets().get(serviceSecretName('notifications'))?.SMTP_URL ?? '';
    const url = new URL(smtpUrl);
    // Without a port, nodemailer (like every client) asks 465 for smtps and 587 for smtp.
    const port = Number(url.port || (url.protocol === 'smtps:' ? 465 : 587));
    for (const dir of KUSTOMIZATIONS) {
      const policy = ofKind<INetworkPolicy>(render(dir), 'NetworkPolicy').find(
        (object) => object.metadata.name === 'notifications-smtp-egress',
      );
      const ports = (policy?.spec?.egress ?? []).flatMap((rule) => rule.ports ?? []);
      expect(ports.map((entry) => entry.port)).toContain(port);
      expect(ports).toEqual([
        { protocol: 'TCP', port: 587 },
        { protocol: 'TCP', port: 465 },
      ]);
    }
  });
});

// ---- the README ----------------------------------------------------------------------------------

describe("README.md's environment table", () => {
  it("has a row for every variable of every service's env schema", () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = /\n## Environment variables\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
    const documented = new Set(
      section
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)])
        .map((match) => match[1]),
    );
    expect(documented.size).toBeGreaterThan(50);
    const missing = ALL_SERVICES.flatMap((service) =>
      envKeys(ENV_SCHEMAS[service])
        .filter((name) => !documented.has(name))
        .map((name) => `${service}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});

// ---- the dependencies' reference installs ------------------------------------------------------

describe('deploy/dependencies', () => {
  const DEPENDENCIES = join(DEPLOY_DIR, 'dependencies');
  const readme = readFileSync(join(DEPENDENCIES, 'README.md'), 'utf8');
  const get = (value: unknown, path: string): unknown =>
    path.split('.').reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), value);

  it('pins each chart, with the same version in the values file and the README', () => {
    const pins = [
      { file: 'nats/values.yaml', chart: 'nats/nats' },
      { file: 'mongodb/operator.values.yaml', chart: 'mongodb/mongodb-kubernetes' },
    ];
    for (const { file, chart } of pins) {
      const text = readFileSync(join(DEPENDENCIES, file), 'utf8');
      const escaped = chart.replace('/', '\\/');
      const pattern = new RegExp(`${escaped} --version (\\d+\\.\\d+\\.\\d+)\\b`, 'g');
      const inFile = [...text.matchAll(pattern)].map((match) => match[1]);
      const inReadme = [...readme.matchAll(pattern)].map((match) => match[1]);
      expect({ file, versions: inFile.length }).toEqual({ file, versions: 1 });
      expect(new Set(inReadme)).toEqual(new Set(inFile));
    }
  });

  it('runs NATS as a 3-node JetStream cluster on files, enough for NATS_STREAM_REPLICAS', () => {
    const [values] = readYaml(join(DEPENDENCIES, 'nats/values.yaml'));
    expect(get(values, 'config.cluster.enabled')).toBe(true);
    expect(get(values, 'config.jetstream.enabled')).toBe(true);
    expect(get(values, 'config.jetstream.fileStore.enabled')).toBe(true);
    expect(get(values, 'config.jetstream.fileStore.pvc.enabled')).toBe(true);
    // 2.12+: the gateway's rate limiter uses JetStream counters.
    const [major = 0, minor = 0] = String(get(values, 'container.image.tag'))
      .split(/[.-]/)
      .map(Number);
    expect(major * 1000 + minor).toBeGreaterThanOrEqual(2012);
    const servers = Number(get(values, 'config.cluster.replicas'));
    for (const dir of KUSTOMIZATIONS) {
      const [configMap] = ofKind<IConfigMap>(render(dir), 'ConfigMap');
      expect(Number(configMap?.data?.NATS_STREAM_REPLICAS)).toBeLessThanOrEqual(servers);
    }
    expect(servers).toBe(3);
  });

  it('has a user with permissions for every service and staff tools, generated from the table', () => {
    const [values] = readYaml(join(DEPENDENCIES, 'nats/values.yaml'));
    expect(get(values, 'config.merge')).toEqual({});
    // `node deploy/scripts/nats-accounts.ts` rewrites it from packages/config/src/nats-users.ts.
    expect(readFileSync(ACCOUNTS_VALUES, 'utf8')).toBe(accountsValues());
    const [accounts] = readYaml(ACCOUNTS_VALUES);
    const users = get(accounts, 'config.merge.accounts.HANDOFF.users');
    expect(Array.isArray(users) ? users.map((user) => get(user, 'user')).sort() : []).toEqual(
      [...ALL_SERVICES, 'staff'].sort(),
    );
    for (const user of Array.isArray(users) ? users : []) {
      const known = NATS_USERS.find((name) => name === get(user, 'user'));
      expect(known).toBeDefined();
      if (known) expect(get(user, 'permissions')).toEqual(natsPermissions(known));
    }
  });

  it('runs MongoDB as a 3-member replica set with one user per service, on its own database', () => {
    const [replicaSet] = readYaml(join(DEPENDENCIES, 'mongodb/replica-set.yaml'));
    expect(get(replicaSet, 'kind')).toBe('MongoDBCommunity');
    expect(get(replicaSet, 'spec.type')).toBe('ReplicaSet');
    expect(get(replicaSet, 'spec.members')).toBe(3);
    const users = get(replicaSet, 'spec.users');
    const roles = Object.fromEntries(
      (Array.isArray(users) ? users : []).map((user) => [get(user, 'name'), get(user, 'roles')]),
    );
    const objects = render('base');
    const expected = Object.fromEntries(
      BACKENDS.map((service) => {
        const env = containerOf(deploymentOf(objects, service)).env ?? [];
        const database = env.find((entry) => entry.name === 'MONGO_DB')?.value;
        return [service, [{ name: 'readWrite', db: database }]];
      }),
    );
    expect(roles).toEqual(expected);
  });
});

// ---- the image ---------------------------------------------------------------------------------

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');

  it('builds on the Node version in .nvmrc', () => {
    const version = readFileSync(join(REPO_ROOT, '.nvmrc'), 'utf8').trim();
    expect(dockerfile).toContain(`ARG NODE_IMAGE=node:${version}-slim\n`);
  });

  it('runs services/$SERVICE/src/main.ts, which every service has', () => {
    expect(dockerfile).toContain('exec node \\"services/${SERVICE:?');
    const missing = ALL_SERVICES.filter(
      (service) => !existsSync(join(REPO_ROOT, 'services', service, 'src', 'main.ts')),
    );
    expect(missing).toEqual([]);
  });

  it('copies the services and the workspaces they import, and no tooling', () => {
    // Runs the `select` stage's script on this repository.
    const script =
      /RUN node --input-type=module - \/manifests \/sources <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(
        dockerfile,
      )?.[1];
    if (script === undefined) throw new Error('the Dockerfile has no select script');
    const out = mkdtempSync(join(tmpdir(), 'handoff-image-'));
    try {
      const run = spawnSync(
        process.execPath,
        ['--input-type=module', '-', join(out, 'manifests'), join(out, 'sources')],
        { cwd: REPO_ROOT, input: script, encoding: 'utf8' },
      );
      expect(run.stderr).toBe('');
      const selected = run.stdout.trim().split('\n');
      const manifest = (dir: string) =>
        JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as {
          name: string;
          dependencies?: Record<string, string>;
        };
      const names = new Set(selected.map((dir) => manifest(dir).name));
      for (const service of ALL_SERVICES) expect(selected).toContain(`services/${service}`);
      for (const dir of selected) {
        const imported = Object.keys(manifest(dir).dependencies ?? {}).filter((name) =>
          name.startsWith('@handoff/'),
        );
        expect({ dir, missing: imported.filter((name) => !names.has(name)) }).toEqual({
          dir,
          missing: [],
        });
      }
      expect([...names].filter((name) => /testkit|devstack|bench|deploy/.test(name))).toEqual([]);
      expect(readdirSync(join(out, 'sources', 'services', 'gateway'))).not.toContain('test');
      expect(readdirSync(join(out, 'manifests')).sort()).toEqual([
        'package-lock.json',
        'package.json',
        'packages',
        'services',
      ]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
