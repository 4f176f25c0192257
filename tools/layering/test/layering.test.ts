// The layering check, run on a small tree made for the purpose: the imports the layers allow
// pass, and each kind of bad import fails the check under the rule that names it. It is the check
// `npm test` runs: the root's `layering` script (the same command line and the same
// .dependency-cruiser.js, copied into the tree), judged by its exit code as test.sh judges it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONFIG = '.dependency-cruiser.js';
const DEPCRUISE = realpathSync(join(REPO_ROOT, 'node_modules', '.bin', 'depcruise'));

/** The arguments of the root's `layering` script, which test.sh runs. */
function layeringArguments(): string[] {
  const manifest = z
    .object({ scripts: z.object({ layering: z.string() }) })
    .parse(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')));
  const [command, ...args] = manifest.scripts.layering.split(/\s+/);
  expect(command).toBe('depcruise');
  return args;
}

/**
 * Runs the check in `root` as test.sh does, and returns its exit code and the violations it
 * printed, as `rule: from` (the text reporter's lines read `error <rule>: <from> → <to>`).
 */
function check(root: string): { status: number | null; violations: string[] } {
  const run = spawnSync(process.execPath, [DEPCRUISE, ...layeringArguments()], {
    cwd: root,
    encoding: 'utf8',
  });
  const found = [...run.stdout.matchAll(/^\s*error (\S+): (\S+) →/gm)].map(
    ([, rule, from]) => `${rule}: ${from}`,
  );
  if (run.status !== 0 && found.length === 0) {
    throw new Error(`depcruise failed without a violation:\n${run.stdout}${run.stderr}`);
  }
  return { status: run.status, violations: [...new Set(found)].sort() };
}

/** What the layers allow: each line here is an import that the check must let through. */
const ALLOWED: Record<string, string> = {
  'packages/contracts/src/index.ts': `export const SERVICES = ['a', 'b'] as const;`,
  // A package builds on the packages below it: contracts, observability, bus, runtime.
  'packages/observability/src/index.ts': `
    import { SERVICES } from '../../contracts/src/index.ts';
    export const log = (line: string) => SERVICES.includes(line as 'a');`,
  'packages/bus/src/index.ts': `
    import { SERVICES } from '../../contracts/src/index.ts';
    import { log } from '../../observability/src/index.ts';
    export const send = () => log(SERVICES[0]);`,
  'packages/runtime/src/index.ts': `
    import { SERVICES } from '../../contracts/src/index.ts';
    import { send } from '../../bus/src/index.ts';
    export const count = SERVICES.length + Number(send());`,
  // A web app builds on the contracts (the web chain shares them with the backend's).
  'apps/console/src/app.ts': `
    import { SERVICES } from '../../../packages/contracts/src/index.ts';
    export const names = SERVICES.join();`,
  // A package's test starts a service through its entry point, and imports jest.
  'packages/runtime/test/service.test.ts': `
    import { it } from '@jest/globals';
    import { bootstrap } from '../../../services/a/src/bootstrap.ts';
    export const started = [it, bootstrap];`,
  // The test kit's suites import jest and the runtime they test.
  'internal-packages/service-suites/src/index.ts': `
    import { it } from '@jest/globals';
    import { count } from '../../../packages/runtime/src/index.ts';
    export const suite = () => it('counts', () => count);`,
  // The test kit's servers, which tests and tools start.
  'internal-packages/testkit/src/index.ts': `export const start = () => 'nats://127.0.0.1:4222';`,
  // jest, as a package the check resolves (a stand-in: only its name matters).
  'node_modules/@jest/globals/package.json': JSON.stringify({
    name: '@jest/globals',
    type: 'module',
    exports: './index.js',
  }),
  'node_modules/@jest/globals/index.js': `export const it = () => undefined;`,
  // A service builds on packages and its own modules.
  'services/a/src/bootstrap.ts': `
    import { count } from '../../../packages/runtime/src/index.ts';
    import { findRequest } from './store.ts';
    export const bootstrap = () => findRequest(count);`,
  'services/a/src/store.ts': `
    export interface RequestDoc { _id: string }
    export const findRequest = (n: number): RequestDoc => ({ _id: String(n) });`,
  'services/b/package.json': JSON.stringify({
    name: '@handoff/b',
    type: 'module',
    exports: { '.': './src/bootstrap.ts' },
  }),
  'services/b/src/bootstrap.ts': `
    import { rows } from './store.ts';
    export const bootstrap = () => rows;`,
  'services/b/src/store.ts': `export const rows: string[] = [];`,
  // Inside a service: handlers take domain, store and adapters; store takes domain; adapters take
  // domain; domain takes only domain and packages.
  'services/b/src/domain/rules.ts': `
    import { SERVICES } from '../../../../packages/contracts/src/index.ts';
    export const open = (status: string) => SERVICES.includes(status as 'a');`,
  'services/b/src/store/requests.ts': `
    import { open } from '../domain/rules.ts';
    export const openOnes = (statuses: string[]) => statuses.filter(open);`,
  'services/b/src/adapters/sender.ts': `
    import { open } from '../domain/rules.ts';
    export const send = (status: string) => open(status);`,
  'services/b/src/handlers/requests.ts': `
    import { send } from '../adapters/sender.ts';
    import { open } from '../domain/rules.ts';
    import { openOnes } from '../store/requests.ts';
    export const handle = (s: string) => [send(s), open(s), openOnes([s])];`,
  // A service's test starts another service through its package name, as the gateway's do.
  'services/a/test/a.test.ts': `
    import { bootstrap as b } from '@handoff/b';
    import { bootstrap } from '../src/bootstrap.ts';
    export const both = [b, bootstrap];`,
  // A tool builds on packages and may import a service's types, as the bench does.
  'tools/stack/src/main.ts': `
    import { SERVICES } from '../../../packages/contracts/src/index.ts';
    import type { RequestDoc } from '../../../services/a/src/store.ts';
    export const doc: RequestDoc = { _id: SERVICES[0] };`,
  // The examples and the deployment checks sit on top, with the tools.
  'examples/agent.ts': `
    import { doc } from '../tools/stack/src/main.ts';
    export const id = doc._id;`,
  'deploy/test/env.test.ts': `
    import { SERVICES } from '../../packages/contracts/src/index.ts';
    export const names = SERVICES.length;`,
};

/** One bad import of each kind, and the rule that must catch it there (null: caught elsewhere). */
const BAD: Record<string, { rule: string | null; source: string }> = {
  'services/a/src/reach.ts': {
    rule: 'service-imports-service',
    source: `import { bootstrap } from '@handoff/b'; export const b = bootstrap;`,
  },
  'services/a/test/reach.test.ts': {
    rule: 'service-test-reaches-into-service',
    source: `import { rows } from '../../b/src/store.ts'; export const seen = rows;`,
  },
  'packages/runtime/src/reach.ts': {
    rule: 'package-imports-service',
    source: `import type { RequestDoc } from '../../../services/a/src/store.ts';
      export const doc: RequestDoc = { _id: 'x' };`,
  },
  'packages/runtime/test/reach.test.ts': {
    rule: 'test-reaches-into-service',
    source: `import { findRequest } from '../../../services/a/src/store.ts';
      export const found = findRequest(1);`,
  },
  // The package order: below, beside, and in the other chain.
  'packages/contracts/src/reach-up.ts': {
    rule: 'package-order',
    source: `import { count } from '../../runtime/src/index.ts'; export const n = count;`,
  },
  'packages/observability/src/reach.ts': {
    rule: 'package-order',
    source: `import { send } from '../../bus/src/index.ts'; export const s = send;`,
  },
  'apps/console/src/reach.ts': {
    rule: 'package-order',
    source: `import { send } from '../../../packages/bus/src/index.ts'; export const s = send;`,
  },
  // The internal test kits serve tests and tools; shipped code never imports them.
  'services/b/src/servers.ts': {
    rule: 'shipped-code-imports-test-kit',
    source: `import { start } from '../../../internal-packages/testkit/src/index.ts';
      export const s = start;`,
  },
  // The contracts load in a browser; jest only in tests and the test kit's suites.
  'packages/contracts/src/hash.ts': {
    rule: 'contracts-import-node',
    source: `import { createHash } from 'node:crypto'; export const hash = createHash;`,
  },
  'packages/runtime/src/testing.ts': {
    rule: 'source-imports-jest',
    source: `import { it } from '@jest/globals'; export const test = it;`,
  },
  'packages/contracts/src/reach.ts': {
    rule: 'library-imports-tool',
    source: `import { doc } from '../../../tools/stack/src/main.ts'; export const id = doc._id;`,
  },
  'services/b/src/reach.ts': {
    rule: 'library-imports-tool',
    source: `import { id } from '../../../examples/agent.ts'; export const seen = id;`,
  },
  'tools/stack/src/start.ts': {
    rule: 'tool-runs-service-code',
    source: `import { bootstrap } from '../../../services/a/src/bootstrap.ts'; bootstrap();`,
  },
  // Inside a service, each layer that reaches up.
  'services/b/src/domain/reach.ts': {
    rule: 'service-domain-reaches-up',
    source: `import { openOnes } from '../store/requests.ts'; export const all = openOnes([]);`,
  },
  'services/b/src/store/reach.ts': {
    rule: 'service-store-reaches-up',
    source: `import { handle } from '../handlers/requests.ts'; export const h = handle;`,
  },
  'services/b/src/adapters/reach.ts': {
    rule: 'service-adapter-reaches-up',
    source: `import type { openOnes } from '../store/requests.ts';
      export type Ones = typeof openOnes;`,
  },
  // A cycle through a type-only import, as intake's was.
  'packages/contracts/src/ids.ts': {
    rule: 'no-cycle',
    source: `import type { Name } from './names.ts'; export const id = (name: Name) => name;`,
  },
  // A cycle is reported once, from the first of its modules.
  'packages/contracts/src/names.ts': {
    rule: null,
    source: `import { id } from './ids.ts'; export type Name = string; export const first = id('a');`,
  },
};

function makeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'handoff-layering-'));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), `${source.trim()}\n`);
  }
  writeFileSync(join(root, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  copyFileSync(join(REPO_ROOT, CONFIG), join(root, CONFIG));
  // As npm links workspaces: the check must see through the link to services/b.
  mkdirSync(join(root, 'node_modules', '@handoff'), { recursive: true });
  symlinkSync('../../services/b', join(root, 'node_modules', '@handoff', 'b'));
  return root;
}

describe('the layering check', () => {
  const trees: string[] = [];
  let allowed: string;
  let bad: string;

  beforeAll(() => {
    allowed = makeTree(ALLOWED);
    bad = makeTree({
      ...ALLOWED,
      ...Object.fromEntries(Object.entries(BAD).map(([path, { source }]) => [path, source])),
    });
    trees.push(allowed, bad);
  });

  afterAll(() => {
    for (const root of trees) rmSync(root, { recursive: true, force: true });
  });

  it('passes the imports the layers allow', () => {
    expect(check(allowed)).toEqual({ status: 0, violations: [] });
  });

  it('fails on each bad import, under the rule that names it, and on nothing else', () => {
    const { status, violations } = check(bad);
    expect(status).not.toBe(0);
    const expected = Object.entries(BAD).flatMap(([path, { rule }]) =>
      rule === null ? [] : [`${rule}: ${path}`],
    );
    expect(violations).toEqual(expected.sort());
  });

  it('refuses to run while a package has no place in the package order', () => {
    const unplaced = makeTree({ ...ALLOWED, 'packages/newcomer/package.json': '{}' });
    trees.push(unplaced);
    expect(() => check(unplaced)).toThrow(/PACKAGE_ORDER does not place packages\/newcomer/);
  });
});
