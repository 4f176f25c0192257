// The layering of the tree, checked by dependency-cruiser (`npm run layering`; `npm test` runs it
// before the workspaces' checks). ARCHITECTURE.md ("Layers") says what each layer may import and
// why. The rules match resolved file paths relative to the directory the check runs in, so an
// import through a package name (`@handoff/gateway`, a node_modules symlink) and a relative
// import of the same file are judged alike. tools/layering/test runs these rules on a small tree
// of bad imports to show that each one fails.

import { existsSync, readdirSync } from 'node:fs';

// Everything above the libraries and the services: runnable tools, the examples and the
// deployment checks.
const TOP = '^(tools|examples|deploy)/';
// A service's entry point, the `.` export of its package: what a test starts in-process.
const SERVICE_ENTRY = '^services/[^/]+/src/bootstrap\\.ts$';
// The tiers of workspaces below the tools (ARCHITECTURE.md, "The tree"): libraries in
// packages/, the internal test kits in internal-packages/, the web apps in apps/ (the backend
// processes are services/). A package's name is unique across them.
const PACKAGE_TIERS = ['packages', 'internal-packages', 'apps'];
const PACKAGE = `^(${PACKAGE_TIERS.join('|')})/`;
// A workspace's tests, wherever the workspace lives.
const TEST = `^(${PACKAGE_TIERS.join('|')}|services|tools)/[^/]+/test/|^(examples|deploy)/test/`;

// The jest suites of the test kit: the one place outside a test folder that imports jest.
const TEST_KIT = '^internal-packages/service-suites/src/';

// The order of the packages, lowest first, as chains that share the contracts at the bottom: the
// backend's (what the services run on, then the test kit over all of it) and the web's (the SDK,
// what is built on it, the two web apps). A package imports only packages below it in its own
// chain: never one beside or above it, nor one of the other chain (a web app never pulls in NATS
// or MongoDB code, the runtime never the SDK). ARCHITECTURE.md ("Layers") explains the order.
const PACKAGE_ORDER = {
  backend: [
    ['contracts'],
    ['config', 'observability'],
    ['bus', 'store', 'testkit'],
    ['runtime', 'files'],
    ['service-suites'],
  ],
  web: [['contracts'], ['sdk'], ['mcp', 'web-ui'], ['console', 'workspace']],
};

/** The packages each package may import: those below it in every chain it is part of. */
function packagesBelow() {
  /** @type {Map<string, Set<string>>} */
  const below = new Map();
  for (const chain of Object.values(PACKAGE_ORDER)) {
    chain.forEach((level, index) => {
      for (const name of level) {
        const allowed = below.get(name) ?? new Set();
        for (const lower of chain.slice(0, index).flat()) allowed.add(lower);
        below.set(name, allowed);
      }
    });
  }
  return below;
}

/** Each package's folder, `<tier>/<name>`, by its name, and whether it is a workspace. */
function packageDirs() {
  return new Map(
    PACKAGE_TIERS.flatMap((tier) =>
      existsSync(tier)
        ? readdirSync(tier, { withFileTypes: true })
            .filter((entry) => entry.isDirectory())
            .map(({ name }) => [
              name,
              { dir: `${tier}/${name}`, workspace: existsSync(`${tier}/${name}/package.json`) },
            ])
        : [],
    ),
  );
}

/** One rule per package: it never imports a package that is not below it. */
function packageOrderRules() {
  const below = packagesBelow();
  const dirs = packageDirs();
  // A package the order does not place would escape the rule: placing it is part of adding it.
  const unplaced = [...dirs]
    .filter(([name, { workspace }]) => workspace && !below.has(name))
    .map(([, { dir }]) => dir);
  if (unplaced.length > 0) {
    throw new Error(
      `.dependency-cruiser.js: PACKAGE_ORDER does not place ${unplaced.join(', ')}; ` +
        'put each in the chain and level it belongs to (ARCHITECTURE.md, "Layers").',
    );
  }
  const pathOf = (name) => dirs.get(name)?.dir ?? `packages/${name}`;
  return [...below].map(([name, allowed]) => ({
    name: 'package-order',
    comment:
      `${pathOf(name)} sits above ${allowed.size > 0 ? [...allowed].sort().join(', ') : 'no other package'} ` +
      'in the package order (PACKAGE_ORDER): it imports no other package. Move what both need down.',
    severity: 'error',
    from: { path: `^${pathOf(name)}/`, pathNot: TEST },
    to: { path: PACKAGE, pathNot: `^(${[name, ...allowed].map(pathOf).join('|')})/` },
  }));
}

// The modules that still depart from the directions inside a service, each named with its reason
// in ARCHITECTURE.md ("Where a service departs from it"). The list only shrinks.
/** @type {string[]} */
const DEPARTURES = [];

/** The rule that a layer inside a service never imports the layers above it. */
function reachesUp(layer, above, why) {
  return {
    name: `service-${layer === 'adapters' ? 'adapter' : layer}-reaches-up`,
    comment: `${why} It never imports its ${above.join(', ')}.`,
    severity: 'error',
    from: {
      path: `^services/([^/]+)/src/${layer}/`,
      ...(DEPARTURES.length > 0 ? { pathNot: DEPARTURES } : {}),
    },
    to: { path: `^services/$1/src/(${above.join('|')})/` },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment:
        'A module reaches itself through its imports. Move what both sides need into a module ' +
        'of its own (type-only imports count: they tie the modules together all the same).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'service-imports-service',
      comment:
        'A service talks to another only over NATS. Shared types and schemas belong in ' +
        'packages/contracts, shared code in another package.',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: TEST },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'service-test-reaches-into-service',
      comment:
        "A service's test may start another service in-process through its entry point (the " +
        "package's `.` export, src/bootstrap.ts), but never reach into its modules.",
      severity: 'error',
      from: { path: '^services/([^/]+)/test/' },
      to: { path: '^services/', pathNot: ['^services/$1/', SERVICE_ENTRY] },
    },
    {
      name: 'package-imports-service',
      comment:
        'Packages are the libraries the services are built from: they never depend on a ' +
        'service. What both need belongs in a package (env schemas: packages/config).',
      severity: 'error',
      from: { path: PACKAGE, pathNot: TEST },
      to: { path: '^services/' },
    },
    {
      name: 'library-imports-tool',
      comment:
        'Packages and services never depend on a tool, the examples or the deployment checks: ' +
        'those sit on top, and the image leaves them out.',
      severity: 'error',
      from: { path: `${PACKAGE}|^services/` },
      to: { path: TOP },
    },
    {
      name: 'shipped-code-imports-test-kit',
      comment:
        'The internal test kits (internal-packages/: real servers, shared jest suites) serve ' +
        "tests and the tools; the libraries, the web apps and the services' code never import " +
        'them, so nothing of them ships.',
      severity: 'error',
      from: { path: '^(packages|apps|services)/', pathNot: TEST },
      to: { path: '^internal-packages/' },
    },
    {
      name: 'tool-runs-service-code',
      comment:
        'Tools start services as processes (`node services/<name>/src/main.ts`), not by ' +
        'importing them. They may import service types (`import type`, erased before anything ' +
        'runs), as the bench does to write documents of the real shape; tests may start a ' +
        'service through its entry point.',
      severity: 'error',
      from: { path: TOP, pathNot: TEST },
      to: { path: '^services/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'test-reaches-into-service',
      comment:
        'Outside a service, a test may start it in-process through its entry point (the ' +
        "package's `.` export, src/bootstrap.ts), but never reach into its modules.",
      severity: 'error',
      from: { path: TEST, pathNot: '^services/' },
      to: { path: '^services/', pathNot: SERVICE_ENTRY, dependencyTypesNot: ['type-only'] },
    },
    ...packageOrderRules(),
    {
      name: 'contracts-import-node',
      comment:
        'The contracts load in the web apps too: no Node built-in module in packages/contracts/src ' +
        '(what needs one, such as key hashing, lives in a backend package: packages/runtime).',
      severity: 'error',
      from: { path: '^packages/contracts/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'source-imports-jest',
      comment:
        "Only tests and the test kit's suites (internal-packages/service-suites/src) import jest: a " +
        'helper that needs it belongs there, not in the code that ships.',
      severity: 'error',
      from: { pathNot: [TEST, TEST_KIT] },
      to: { path: '(^|/)node_modules/@jest/globals/' },
    },
    reachesUp(
      'domain',
      ['handlers', 'store', 'adapters'],
      "A service's domain/ holds its rules: it imports only other domain modules and packages " +
        '(ARCHITECTURE.md, "Shape of a service"). Declare the fields a rule reads in domain/ ' +
        'instead of taking a stored document.',
    ),
    reachesUp(
      'store',
      ['handlers', 'adapters'],
      "A service's store/ (documents, views, queries) imports domain/ and packages.",
    ),
    reachesUp(
      'adapters',
      ['handlers', 'store'],
      "A service's adapters/ (clients of what is outside NATS and the database) import domain/ " +
        'and packages.',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // A workspace's own node_modules are left out; the root's stay in the graph as leaves (never
    // followed), so a rule can name an npm package that must not be imported (jest).
    exclude: { path: '(^|/)(dist|coverage|\\.data)/|.+/node_modules/' },
    // Type-only imports are dependencies too: the intake cycle that this check was made for
    // ran through one.
    tsPreCompilationDeps: true,
    // The workspaces' package.json `exports` point at their TypeScript sources.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
