// The chart's alert rules and dashboard, checked with Prometheus's own promtool: `check rules`
// on the rules file the PrometheusRule embeds, `test rules` on its unit tests
// (files/prometheus-rules.test.yaml: a case that fires each alert and one that keeps it quiet), and
// every metric they read held to README.md's metrics table, so that an alert cannot watch a
// family that does not exist. promtool comes from .tools/bin (scripts/setup.sh builds it) or
// PATH; without it these tests fail rather than skip.
import { findPromtool, readmeMetricFamilies, runPromtool } from '@handoff/testkit';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHART_DIR } from './helm.ts';
import { familyOf, metricNamesOf } from './promql.ts';
import { isRecord, readYaml, REPO_ROOT } from './support.ts';

const RULES_FILE = join(CHART_DIR, 'files', 'prometheus-rules.yaml');
const RULES_TESTS = join(CHART_DIR, 'files', 'prometheus-rules.test.yaml');
const DASHBOARD_FILE = join(CHART_DIR, 'files', 'dashboard.json');

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function alertRules(): AlertRule[] {
  const [document] = readYaml(RULES_FILE);
  if (!isRecord(document) || !Array.isArray(document.groups)) {
    throw new Error('prometheus-rules.yaml has no groups');
  }
  return document.groups.flatMap((group: unknown) => {
    if (!isRecord(group) || !Array.isArray(group.rules)) throw new Error('a group has no rules');
    return group.rules as AlertRule[];
  });
}

interface AlertCheck {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}

/** Every `alert_rule_test` of the unit tests. */
function alertChecks(): AlertCheck[] {
  const [document] = readYaml(RULES_TESTS);
  if (!isRecord(document) || !Array.isArray(document.tests)) {
    throw new Error('prometheus-rules.test.yaml has no tests');
  }
  return document.tests.flatMap((test: unknown) =>
    isRecord(test) && Array.isArray(test.alert_rule_test)
      ? (test.alert_rule_test as AlertCheck[])
      : [],
  );
}

const families = () =>
  new Set(
    readmeMetricFamilies(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).map(
      (family) => family.name,
    ),
  );

interface Dashboard {
  panels: { id: number; type: string; title: string; targets?: { expr: string }[] }[];
  templating: { list: { name: string; query?: unknown; definition?: string }[] };
}

const dashboard = () => JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard;

/** Every PromQL expression of the dashboard: its panels' targets and its variables' queries. */
function dashboardExpressions(): string[] {
  const { panels, templating } = dashboard();
  return [
    ...panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
    ...templating.list.flatMap((variable) => {
      const query = isRecord(variable.query) ? variable.query.query : undefined;
      // label_values(metric, label): the metric is its first argument.
      const metric = typeof query === 'string' ? /^label_values\((\w+),/.exec(query)?.[1] : '';
      return metric ? [metric] : [];
    }),
  ];
}

/** The names read by `expressions` that are no family of the README table. */
function unknownMetrics(expressions: readonly string[]): string[] {
  const known = families();
  return [...new Set(expressions.flatMap(metricNamesOf))].filter(
    (name) => familyOf(name, known) === undefined,
  );
}

let promtool: string;
beforeAll(async () => {
  promtool = await findPromtool();
});

describe('promtool', () => {
  it('is installed (scripts/setup.sh builds it)', async () => {
    const result = await runPromtool(promtool, ['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toContain('promtool, version');
  });
});

describe('the alert rules (deploy/helm/handoff/files/prometheus-rules.yaml)', () => {
  it('pass `promtool check rules`, lint included', async () => {
    const result = await runPromtool(promtool, ['check', 'rules', '--lint=all', RULES_FILE]);
    expect({ code: result.code, output: result.stdout + result.stderr }).toEqual({
      code: 0,
      output: expect.stringContaining(`SUCCESS: ${alertRules().length} rules found`),
    });
  });

  it('pass their unit tests (`promtool test rules`)', async () => {
    const result = await runPromtool(promtool, ['test', 'rules', RULES_TESTS]);
    expect({ code: result.code, output: result.stdout + result.stderr }).toEqual({
      code: 0,
      output: expect.stringContaining('SUCCESS'),
    });
  });

  it('fail their unit tests when an alert stops firing (the tests can fail)', async () => {
    // The same tests, run with every alert's threshold moved out of reach.
    const dir = mkdtempSync(join(tmpdir(), 'handoff-rules-'));
    try {
      const broken = readFileSync(RULES_FILE, 'utf8').replace(/ > (\d+(?:\.\d+)?)$/gm, ' > 1e12');
      expect(broken).not.toBe(readFileSync(RULES_FILE, 'utf8'));
      writeFileSync(join(dir, 'rules.yaml'), broken);
      writeFileSync(
        join(dir, 'tests.yaml'),
        readFileSync(RULES_TESTS, 'utf8').replace('  - prometheus-rules.yaml', '  - rules.yaml'),
      );
      const result = await runPromtool(promtool, ['test', 'rules', join(dir, 'tests.yaml')]);
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain('FAILED');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('have a unit test that fires each alert, and one that keeps it quiet', () => {
    const checks = alertChecks();
    const coverage = alertRules().map((rule) => {
      const mine = checks.filter((check) => check.alertname === rule.alert);
      return {
        alert: rule.alert,
        fires: mine.some((check) => (check.exp_alerts ?? []).length > 0),
        quiet: mine.some((check) => (check.exp_alerts ?? []).length === 0),
      };
    });
    expect(coverage.length).toBeGreaterThanOrEqual(10);
    expect(coverage).toEqual(coverage.map(({ alert }) => ({ alert, fires: true, quiet: true })));
    const names = new Set(alertRules().map((rule) => rule.alert));
    expect(checks.filter((check) => !names.has(check.alertname))).toEqual([]);
  });

  it('each carry a severity, a summary, a description, and a runbook: what it means, what to check, what to do', () => {
    for (const rule of alertRules()) {
      const { severity } = rule.labels ?? {};
      const { summary, description, runbook, ...other } = rule.annotations ?? {};
      expect({ alert: rule.alert, severity, other }).toEqual({
        alert: rule.alert,
        severity: expect.stringMatching(/^(critical|warning|info)$/),
        other: {},
      });
      expect({ alert: rule.alert, summary, description }).toEqual({
        alert: rule.alert,
        summary: expect.stringMatching(/\S/),
        description: expect.stringMatching(/\S/),
      });
      for (const part of ['What it means:', 'What to check:', 'What to do:']) {
        expect({ alert: rule.alert, part, runbook: runbook?.includes(part) }).toEqual({
          alert: rule.alert,
          part,
          runbook: true,
        });
      }
    }
  });

  it('read only metric families of the README table', () => {
    const rules = alertRules();
    expect(rules.filter((rule) => metricNamesOf(rule.expr).length === 0)).toEqual([]);
    expect(unknownMetrics(rules.map((rule) => rule.expr))).toEqual([]);
  });

  it('would catch a metric missing from the README table', () => {
    expect(unknownMetrics(['sum(rate(handoff_webhook_attempts_totl[5m]))'])).toEqual([
      'handoff_webhook_attempts_totl',
    ]);
    expect(
      unknownMetrics([
        'histogram_quantile(0.99, sum by (le) (rate(http_server_request_duration_seconds_bucket{a="b"}[5m])))',
      ]),
    ).toEqual([]);
  });
});

describe('the dashboard (deploy/helm/handoff/files/dashboard.json)', () => {
  it('reads only metric families of the README table, and every one of them', () => {
    const expressions = dashboardExpressions();
    expect(unknownMetrics(expressions)).toEqual([]);
    const known = families();
    const shown = new Set(
      expressions.flatMap(metricNamesOf).map((name) => familyOf(name, known) ?? name),
    );
    expect([...known].filter((family) => !shown.has(family))).toEqual([]);
  });

  it('has unique panel ids, a title for each, and queries Prometheus through its variable', () => {
    const { panels } = dashboard();
    const ids = panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of panels) expect(panel.title).toMatch(/\S/);
    const text = readFileSync(DASHBOARD_FILE, 'utf8');
    expect(text).toContain('"uid": "${datasource}"');
  });
});
