// The Helm CLI for the chart checks: from PATH, or the one scripts/setup.sh builds.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { isKubeObject, type KubeObject } from './kubernetes.ts';
import { DEPLOY_DIR, REPO_ROOT } from './support.ts';

export const CHART_DIR = join(DEPLOY_DIR, 'helm', 'handoff');

/** The Kubernetes version the chart is rendered for (helm's built-in default is older). */
export const KUBE_VERSION = '1.33.0';

const local = join(REPO_ROOT, '.tools', 'bin', 'helm');
const candidates = ['helm', local];

/** The helm binary, or undefined when neither PATH nor .tools/bin has one. */
export function findHelm(): string | undefined {
  return candidates.find(
    (candidate) =>
      (candidate === 'helm' || existsSync(candidate)) &&
      spawnSync(candidate, ['version', '--short'], { encoding: 'utf8' }).status === 0,
  );
}

export interface HelmResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function helm(binary: string, args: string[]): HelmResult {
  const result = spawnSync(binary, args, { encoding: 'utf8', cwd: REPO_ROOT });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `--set` arguments from a flat map. */
export const setArgs = (values: Record<string, string>): string[] =>
  Object.entries(values).flatMap(([key, value]) => ['--set', `${key}=${value}`]);

/** `helm template` with these values: the objects, or the error helm printed. */
export function template(
  binary: string,
  values: Record<string, string>,
  extra: string[] = [],
): KubeObject[] {
  const result = helm(binary, [
    'template',
    'handoff',
    CHART_DIR,
    '--namespace',
    'handoff',
    '--kube-version',
    KUBE_VERSION,
    ...setArgs(values),
    ...extra,
  ]);
  if (result.status !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((document) => {
      const [error] = document.errors;
      if (error) throw new Error(`helm template output: ${error.message}`);
      return document.toJS() as unknown;
    })
    .filter((value) => value !== null)
    .map((value) => {
      if (!isKubeObject(value)) throw new Error('helm template rendered a non-object');
      return value;
    });
}
