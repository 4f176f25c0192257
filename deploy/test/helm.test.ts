// The Helm chart deploy/helm/handoff, checked offline: `helm lint`, `helm template` output
// against the same Kubernetes schemas as the kustomize output, and parity with the kustomize
// production overlay, whose defaults the chart mirrors. helm comes from PATH or .tools/bin
// (scripts/setup.sh builds it); without it these tests fail rather than skip, so that a machine
// without helm cannot pass unnoticed.
import { ALL_SERVICES } from '@handoff/contracts';
import { describe, expect, it } from '@jest/globals';
import type { IPodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHART_DIR, findHelm, helm, KUBE_VERSION, setArgs, template } from './helm.ts';
import {
  describeObject,
  type KubeObject,
  renderKustomization,
  unknownFieldErrors,
  validateObject,
} from './kubernetes.ts';
import { DEPLOY_DIR, readYaml, serviceSecretName } from './support.ts';

const binary = findHelm();
function helmBinary(): string {
  if (binary === undefined) {
    throw new Error(
      'helm is not installed: run scripts/setup.sh, which builds it into .tools/bin' +
        (process.env.CI === 'true' ? ' (CI=true: the chart checks are required)' : ''),
    );
  }
  return binary;
}

const BACKENDS = ALL_SERVICES.filter((service) => service !== 'gateway');

/** Secrets the operator created, as in production. */
const EXISTING = { 'secrets.create': 'false' };
/** Values that make the chart create each service's Secret, with the keys it must have. */
const CREATED = {
  'secrets.values.gateway.STAFF_JWT_SECRET': 'x'.repeat(48),
  'secrets.values.gateway.A2A_TOKENS_KEY': Buffer.alloc(32, 5).toString('base64'),
  'secrets.values.gateway.FILE_URLS_KEY': Buffer.alloc(32, 6).toString('base64'),
  'secrets.values.webhook-dispatcher.WEBHOOK_SECRETS_KEY': Buffer.alloc(32, 7).toString('base64'),
  'secrets.values.notifications.SMTP_URL': 'smtp://apikey:pw@smtp.example.invalid:587',
  'secrets.values.notifications.NOTIFICATIONS_SIGNING_KEY': Buffer.alloc(32, 9).toString('base64'),
  ...Object.fromEntries(
    BACKENDS.map((service) => [
      `secrets.values.${service}.MONGO_URL`,
      `mongodb://${service}:pw@mongo.example.invalid:27017/`,
    ]),
  ),
  ...Object.fromEntries(
    ALL_SERVICES.map((service) => [
      `secrets.values.${service}.NATS_PASSWORD`,
      `nats-password-of-${service}`,
    ]),
  ),
};
/** The Stripe keys, which payments' Secret holds only when they are given. */
const STRIPE = {
  'secrets.values.payments.STRIPE_SECRET_KEY': 'sk_test_x',
  'secrets.values.payments.STRIPE_WEBHOOK_SECRET': 'whsec_x',
};

/** The object store's access keys, which conversation's and milestones' Secrets hold if given. */
const FILES_S3 = Object.fromEntries(
  ['conversation', 'milestones'].flatMap((service) => [
    [`secrets.values.${service}.FILES_S3_ACCESS_KEY_ID`, `access-key-of-${service}`],
    [`secrets.values.${service}.FILES_S3_SECRET_ACCESS_KEY`, `secret-key-of-${service}`],
  ]),
);

/** Prometheus and Grafana: the PodMonitor, the alert rules, the dashboard, lag autoscaling. */
const METRICS = {
  'metrics.podMonitor.enabled': 'true',
  'metrics.podMonitor.labels.release': 'kube-prometheus-stack',
  'metrics.prometheusRule.enabled': 'true',
  'metrics.prometheusRule.labels.release': 'kube-prometheus-stack',
  'metrics.dashboard.enabled': 'true',
  'metrics.dashboard.annotations.grafana_folder': 'Handoff',
  'services.webhook-dispatcher.autoscaling.consumerLag.enabled': 'true',
  'networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name':
    'monitoring',
};

/** The value sets every check renders: the defaults, and each switch flipped. */
const VARIANTS: Record<string, Record<string, string>> = {
  'existing Secrets': EXISTING,
  'created Secrets': CREATED,
  'created Secrets with Stripe': { ...CREATED, ...STRIPE },
  'files on S3': {
    ...CREATED,
    ...FILES_S3,
    'config.FILES_STORE': 's3',
    'config.FILES_S3_BUCKET': 'handoff-files',
    'networkPolicy.filesS3EgressPorts': '{443,9000}',
  },
  'Ingress enabled': { ...EXISTING, 'ingress.enabled': 'true' },
  'metrics on': { ...EXISTING, ...METRICS },
  'no NetworkPolicies, no tests, no autoscaling': {
    ...EXISTING,
    'networkPolicy.enabled': 'false',
    'tests.enabled': 'false',
    'services.gateway.autoscaling.enabled': 'false',
    'services.gateway.replicas': '3',
  },
  'image digest, TRUST_PROXY off and open gateway': {
    ...EXISTING,
    'image.digest': `sha256:${'a'.repeat(64)}`,
    'config.TRUST_PROXY': 'false',
    'networkPolicy.gatewayIngressFrom': 'null',
  },
};

const rendered = new Map<string, KubeObject[]>();
function render(variant: string): KubeObject[] {
  let objects = rendered.get(variant);
  if (!objects) {
    objects = template(helmBinary(), VARIANTS[variant] ?? {});
    rendered.set(variant, objects);
  }
  return objects;
}

const ofKind = <T>(objects: readonly KubeObject[], kind: string) =>
  objects.filter((object) => object.kind === kind) as (KubeObject & T)[];
const named = <T>(objects: readonly KubeObject[], kind: string, name: string) => {
  const found = ofKind<T>(objects, kind).find((object) => object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};
const container = (deployment: IDeployment): IContainer => {
  const [first] = deployment.spec?.template.spec?.containers ?? [];
  if (!first) throw new Error('no container');
  return first;
};

/** A pod spec with its env sorted by name: the chart lists variables alphabetically. */
function normalizedPodSpec(deployment: IDeployment) {
  const spec = structuredClone(deployment.spec?.template.spec);
  for (const entry of spec?.containers ?? []) {
    entry.env = [...(entry.env ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  }
  return spec;
}

describe('helm', () => {
  it('is installed (scripts/setup.sh builds it)', () => {
    expect(helmBinary()).toBeTruthy();
    expect(helm(helmBinary(), ['version', '--short']).stdout).toMatch(/^v3\./);
  });

  it.each([
    ['with existing Secrets', EXISTING],
    ['creating the Secrets', CREATED],
    ['with metrics on', { ...EXISTING, ...METRICS }],
  ])('lints the chart cleanly (--strict), %s', (_, values) => {
    const result = helm(helmBinary(), [
      'lint',
      CHART_DIR,
      '--strict',
      '--kube-version',
      KUBE_VERSION,
      ...setArgs(values),
    ]);
    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({
      status: 0,
      output: expect.stringContaining('1 chart(s) linted, 0 chart(s) failed'),
    });
  });
});

describe.each(Object.keys(VARIANTS))('helm template (%s)', (variant) => {
  it('renders objects that match the Kubernetes schemas', async () => {
    const objects = render(variant);
    expect(objects.length).toBeGreaterThan(10);
    for (const object of objects) await validateObject(object);
    const ids = objects.map(describeObject);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has no field that its schema does not define', () => {
    expect(unknownFieldErrors(render(variant))).toEqual([]);
  });

  it('refers only to ConfigMap keys it renders, and each Deployment to its own Secret only', () => {
    const objects = render(variant);
    const config = named<IConfigMap>(objects, 'ConfigMap', 'handoff-config').data ?? {};
    const secrets = new Map(
      ofKind<ISecret>(objects, 'Secret').map((secret) => [secret.metadata.name, secret]),
    );
    for (const deployment of ofKind<IDeployment>(objects, 'Deployment')) {
      const service = deployment.metadata.name;
      const own = serviceSecretName(service);
      const { env = [], envFrom = [] } = container(deployment);
      expect({ service, envFrom: envFrom.filter((from) => from.secretRef) }).toEqual({
        service,
        envFrom: [],
      });
      for (const entry of env) {
        const fromConfig = entry.valueFrom?.configMapKeyRef;
        const fromSecret = entry.valueFrom?.secretKeyRef;
        if (fromConfig)
          expect({ key: fromConfig.key, in: fromConfig.key in config }).toEqual({
            key: fromConfig.key,
            in: true,
          });
        if (fromSecret) {
          expect({ service, variable: entry.name, secret: fromSecret.name }).toEqual({
            service,
            variable: entry.name,
            secret: own,
          });
          const created = secrets.get(own);
          if (created && fromSecret.optional !== true) {
            expect(Object.keys(created.stringData ?? {})).toContain(fromSecret.key);
          }
        }
      }
    }
  });
});

describe('the chart and the kustomize production overlay', () => {
  const kustomize = () => renderKustomization(join(DEPLOY_DIR, 'overlays/production'));
  const chart = () =>
    template(helmBinary(), { ...EXISTING, 'ingress.enabled': 'true', 'tests.enabled': 'false' });

  it('deploy the same services, with the same pod specs (env, ports, probes, resources)', () => {
    const ours = chart();
    const theirs = kustomize();
    const names = (objects: KubeObject[]) =>
      ofKind<IDeployment>(objects, 'Deployment')
        .map((deployment) => deployment.metadata.name)
        .sort();
    expect(names(ours)).toEqual([...ALL_SERVICES].sort());
    expect(names(ours)).toEqual(names(theirs));
    for (const service of ALL_SERVICES) {
      const mine = named<IDeployment>(ours, 'Deployment', service);
      const other = named<IDeployment>(theirs, 'Deployment', service);
      expect({ service, spec: normalizedPodSpec(mine) }).toEqual({
        service,
        spec: normalizedPodSpec(other),
      });
      expect(mine.spec?.replicas).toEqual(other.spec?.replicas);
      expect(mine.spec?.selector).toEqual(other.spec?.selector);
      expect(mine.spec?.strategy).toEqual(other.spec?.strategy);
      expect(mine.spec?.template.metadata?.labels).toEqual(other.spec?.template.metadata?.labels);
    }
  });

  it.each([
    'ConfigMap',
    'Service',
    'HorizontalPodAutoscaler',
    'PodDisruptionBudget',
    'NetworkPolicy',
    'Ingress',
  ])('render the same %s objects', (kind) => {
    const comparable = (objects: KubeObject[]) =>
      Object.fromEntries(
        ofKind<KubeObject>(objects, kind)
          .map((object): [string, unknown] => [
            object.metadata.name,
            {
              spec: object.spec,
              data: object.data,
              annotations: (object.metadata as { annotations?: unknown }).annotations,
            },
          ])
          .sort(([a], [b]) => a.localeCompare(b)),
      );
    const ours = comparable(chart());
    expect(Object.keys(ours).length).toBeGreaterThan(0);
    expect(ours).toEqual(comparable(kustomize()));
  });

  it('leave out only the Namespace and the example Secrets, which the operator creates', () => {
    const kinds = (objects: KubeObject[]) => [...new Set(objects.map((object) => object.kind))];
    expect(kinds(kustomize()).filter((kind) => !kinds(chart()).includes(kind))).toEqual([
      'Namespace',
    ]);
  });
});

describe('the chart Secrets', () => {
  const keysOf = (variant: string) =>
    Object.fromEntries(
      ofKind<ISecret>(render(variant), 'Secret').map((secret) => [
        secret.metadata.name,
        Object.keys(secret.stringData ?? {}).sort(),
      ]),
    );

  it('are not rendered when the operator creates them', () => {
    expect(ofKind(render('existing Secrets'), 'Secret')).toEqual([]);
  });

  it("are one per service, each with that service's keys only", () => {
    const backend = ['MONGO_URL', 'NATS_PASSWORD'];
    expect(keysOf('created Secrets')).toEqual({
      [serviceSecretName('gateway')]: [
        'A2A_TOKENS_KEY',
        'FILE_URLS_KEY',
        'NATS_PASSWORD',
        'STAFF_JWT_SECRET',
      ],
      [serviceSecretName('intake')]: backend,
      [serviceSecretName('conversation')]: backend,
      [serviceSecretName('payments')]: backend,
      [serviceSecretName('milestones')]: backend,
      [serviceSecretName('webhook-dispatcher')]: [...backend, 'WEBHOOK_SECRETS_KEY'],
      [serviceSecretName('notifications')]: [
        'MONGO_URL',
        'NATS_PASSWORD',
        'NOTIFICATIONS_SIGNING_KEY',
        'SMTP_URL',
      ],
      [serviceSecretName('testmode')]: backend,
    });
    for (const secret of ofKind<ISecret>(render('created Secrets'), 'Secret')) {
      const service = secret.metadata.labels?.['app.kubernetes.io/name'] ?? '';
      expect(serviceSecretName(service)).toBe(secret.metadata.name);
      expect(secret.stringData?.NATS_PASSWORD).toBe(`nats-password-of-${service}`);
    }
  });

  it("hold the Stripe keys, in payments' Secret only, when they are given", () => {
    expect(keysOf('created Secrets with Stripe')[serviceSecretName('payments')]).toEqual([
      'MONGO_URL',
      'NATS_PASSWORD',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ]);
  });

  it("hold the object store's keys, in conversation's and milestones' Secrets only, when given", () => {
    const keys = keysOf('files on S3');
    const withS3 = [
      'FILES_S3_ACCESS_KEY_ID',
      'FILES_S3_SECRET_ACCESS_KEY',
      'MONGO_URL',
      'NATS_PASSWORD',
    ];
    expect(keys[serviceSecretName('conversation')]).toEqual(withS3);
    expect(keys[serviceSecretName('milestones')]).toEqual(withS3);
    expect(keys[serviceSecretName('intake')]).toEqual(['MONGO_URL', 'NATS_PASSWORD']);
  });

  it.each(Object.keys(CREATED))('refuse to render without %s', (key) => {
    const values = Object.fromEntries(Object.entries(CREATED).filter(([name]) => name !== key));
    expect(() => template(helmBinary(), values)).toThrow(`${key} is required`);
  });
});

describe('helm test', () => {
  it("asks the gateway Service's /readyz, and the NetworkPolicies let it", () => {
    const objects = render('existing Secrets');
    const [pod, ...others] = ofKind<IPod>(objects, 'Pod');
    expect(others).toEqual([]);
    expect(pod?.metadata?.annotations?.['helm.sh/hook']).toBe('test');
    const command = (pod?.spec?.containers[0]?.command ?? []).join(' ');
    expect(command).toContain("fetch('http://gateway:8080/readyz'");
    expect(pod?.spec?.securityContext).toMatchObject({ runAsNonRoot: true });
    const labels = pod?.metadata?.labels ?? {};
    const policies = ofKind<INetworkPolicy>(objects, 'NetworkPolicy');
    const selectsPod = (policy: INetworkPolicy) =>
      Object.entries(policy.spec?.podSelector?.matchLabels ?? {}).every(
        ([key, value]) => labels[key] === value,
      );
    const egressToGateway = policies
      .filter(selectsPod)
      .flatMap((policy) => policy.spec?.egress ?? [])
      .some((rule) => rule.ports?.some((port) => port.port === 8080));
    expect(egressToGateway).toBe(true);
    const gatewayIngress = policies
      .filter(
        (policy) => policy.spec?.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'gateway',
      )
      .flatMap((policy) => policy.spec?.ingress ?? [])
      .some((rule) =>
        rule.from?.some(
          (peer) =>
            Object.entries(peer.podSelector?.matchLabels ?? {}).every(
              ([key, value]) => labels[key] === value,
            ) && peer.namespaceSelector === undefined,
        ),
      );
    expect(gatewayIngress).toBe(true);
  });
});

describe('the object store egress', () => {
  it('is only there when asked for, and then only for conversation and milestones', () => {
    const policies = (variant: string) =>
      ofKind<INetworkPolicy>(render(variant), 'NetworkPolicy').filter((policy) =>
        policy.metadata?.name?.endsWith('-files-s3-egress'),
      );
    expect(policies('created Secrets')).toEqual([]);
    const opened = policies('files on S3');
    expect(
      opened.map((policy) => [
        policy.spec?.podSelector?.matchLabels?.['app.kubernetes.io/name'],
        policy.spec?.egress?.flatMap((rule) => rule.ports ?? []),
      ]),
    ).toEqual(
      ['conversation', 'milestones'].map((service) => [
        service,
        [
          { protocol: 'TCP', port: 443 },
          { protocol: 'TCP', port: 9000 },
        ],
      ]),
    );
  });

  it("gives the services the store's settings from the ConfigMap", () => {
    const objects = render('files on S3');
    const config = named<IConfigMap>(objects, 'ConfigMap', 'handoff-config').data ?? {};
    expect(config).toMatchObject({ FILES_STORE: 's3', FILES_S3_BUCKET: 'handoff-files' });
    for (const service of ['conversation', 'milestones']) {
      const env = container(named<IDeployment>(objects, 'Deployment', service)).env ?? [];
      const names = env.map((entry) => entry.name);
      expect(names).toEqual(expect.arrayContaining(['FILES_STORE', 'FILES_S3_BUCKET']));
      expect(env.find((entry) => entry.name === 'FILES_S3_SECRET_ACCESS_KEY')?.valueFrom).toEqual({
        secretKeyRef: {
          name: serviceSecretName(service),
          key: 'FILES_S3_SECRET_ACCESS_KEY',
          optional: true,
        },
      });
    }
  });
});

describe('the chart values', () => {
  it('are YAML that parses (anchors and merge keys included)', () => {
    expect(readYaml(join(CHART_DIR, 'values.yaml'))).toHaveLength(1);
  });
});

describe('the metrics objects', () => {
  const METRICS_KINDS = ['PodMonitor', 'PrometheusRule'];
  const dashboards = (objects: KubeObject[]) =>
    ofKind<IConfigMap>(objects, 'ConfigMap').filter(
      (map) => map.metadata.name === 'handoff-dashboard',
    );
  const hpa = (objects: KubeObject[], name: string) =>
    named<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', name);

  it('are not rendered by default, and the autoscalers go by CPU only', () => {
    const objects = render('existing Secrets');
    expect(objects.filter((object) => METRICS_KINDS.includes(object.kind))).toEqual([]);
    expect(dashboards(objects)).toEqual([]);
    expect(hpa(objects, 'webhook-dispatcher').spec?.metrics?.map((metric) => metric.type)).toEqual([
      'Resource',
    ]);
    const policies = ofKind<INetworkPolicy>(objects, 'NetworkPolicy').map((p) => p.metadata?.name);
    expect(policies).not.toContain('metrics-ingress');
  });

  it("every Deployment, the gateway's too, serves its health port as `health`, the PodMonitor's port", () => {
    const objects = render('metrics on');
    const [monitor, ...others] = ofKind<IPodMonitor>(objects, 'PodMonitor');
    expect(others).toEqual([]);
    expect(monitor?.metadata?.labels?.release).toBe('kube-prometheus-stack');
    const [endpoint] = monitor?.spec.podMetricsEndpoints ?? [];
    expect(endpoint).toMatchObject({ port: 'health', path: '/metrics' });
    expect(endpoint?.relabelings).toContainEqual({
      sourceLabels: ['__meta_kubernetes_pod_label_app_kubernetes_io_name'],
      targetLabel: 'service',
    });
    const selector = monitor?.spec.selector.matchLabels ?? {};
    for (const service of ALL_SERVICES) {
      const deployment = named<IDeployment>(objects, 'Deployment', service);
      const labels = deployment.spec?.template.metadata?.labels ?? {};
      const selected = Object.entries(selector).every(([key, value]) => labels[key] === value);
      const { ports = [], env = [] } = container(deployment);
      const health = ports.find((port) => port.name === 'health');
      const variable = env.find((entry) => entry.name === 'HEALTH_PORT')?.value;
      expect({ service, selected, port: health?.containerPort, variable }).toEqual({
        service,
        selected: true,
        port: 9090,
        variable: '9090',
      });
    }
    const gatewayPorts = container(named<IDeployment>(objects, 'Deployment', 'gateway')).ports;
    expect(gatewayPorts?.map((port) => [port.name, port.containerPort])).toEqual([
      ['http', 8080],
      ['health', 9090],
    ]);
  });

  it('hold the alert rules of files/prometheus-rules.yaml exactly, which promtool checks', () => {
    const [rule, ...others] = ofKind<IPrometheusRule>(render('metrics on'), 'PrometheusRule');
    expect(others).toEqual([]);
    expect(rule?.metadata?.labels?.release).toBe('kube-prometheus-stack');
    expect(rule?.spec).toEqual(readYaml(join(CHART_DIR, 'files', 'prometheus-rules.yaml'))[0]);
  });

  it("hold the dashboard of files/dashboard.json, labelled for Grafana's sidecar", () => {
    const [map, ...others] = dashboards(render('metrics on'));
    expect(others).toEqual([]);
    expect(map?.metadata.labels?.grafana_dashboard).toBe('1');
    expect(map?.metadata.annotations?.grafana_folder).toBe('Handoff');
    const file = readFileSync(join(CHART_DIR, 'files', 'dashboard.json'), 'utf8');
    expect(JSON.parse(map?.data?.['handoff.json'] ?? 'null')).toEqual(JSON.parse(file));
  });

  it("scale the webhook dispatcher on its deliveries' consumer lag as well as CPU, when asked", () => {
    const objects = render('metrics on');
    const metrics = hpa(objects, 'webhook-dispatcher').spec?.metrics ?? [];
    expect(metrics.map((metric) => metric.type)).toEqual(['Resource', 'External']);
    expect(metrics[1]?.external).toEqual({
      metric: {
        name: 'messaging_consumer_pending',
        selector: { matchLabels: { messaging_consumer_group_name: 'webhook-deliveries' } },
      },
      target: { type: 'AverageValue', averageValue: '100' },
    });
    expect(hpa(objects, 'gateway').spec).toEqual(hpa(render('existing Secrets'), 'gateway').spec);
  });

  it("let metricsFrom, and no one else, reach every pod's health port", () => {
    const policy = named<INetworkPolicy>(render('metrics on'), 'NetworkPolicy', 'metrics-ingress');
    expect(policy.spec?.podSelector?.matchLabels).toEqual({
      'app.kubernetes.io/part-of': 'handoff',
    });
    expect(policy.spec?.ingress).toEqual([
      {
        ports: [{ protocol: 'TCP', port: 9090 }],
        from: [
          { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
        ],
      },
    ]);
  });
});
