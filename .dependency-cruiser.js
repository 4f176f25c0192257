// The layering of the tree, checked by dependency-cruiser (`npm run layering`; `npm test` runs it
// before the workspaces' checks). ARCHITECTURE.md ("Layers") says what each layer may import and
// why. The rules match resolved file paths relative to the directory the check runs in, so an
// import through a package name (`@handoff/gateway`, a node_modules symlink) and a relative
// import of the same file are judged alike. tools/layering/test runs these rules on a small tree
// of bad imports to show that each one fails.

// Everything above the libraries and the services: runnable tools, the examples and the
// deployment checks.
const TOP = '^(tools|examples|deploy)/';
// A service's entry point, the `.` export of its package: what a test starts in-process.
const SERVICE_ENTRY = '^services/[^/]+/src/bootstrap\\.ts$';
// A workspace's tests, wherever the workspace lives.
const TEST = '^(packages|services|tools)/[^/]+/test/|^(examples|deploy)/test/';

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
      from: { path: '^packages/', pathNot: TEST },
      to: { path: '^services/' },
    },
    {
      name: 'library-imports-tool',
      comment:
        'Packages and services never depend on a tool, the examples or the deployment checks: ' +
        'those sit on top, and the image leaves them out.',
      severity: 'error',
      from: { path: '^(packages|services)/' },
      to: { path: TOP },
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
    exclude: { path: '(^|/)(node_modules|dist|coverage|\\.data)/' },
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
