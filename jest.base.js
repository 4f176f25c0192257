import { fileURLToPath } from 'node:url';

// Shared jest settings: TypeScript through swc, native ES modules, real servers from the testkit.
export const swcTransform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2024' },
      module: { type: 'es6' },
      sourceMaps: 'inline',
    },
  ],
};

/** @param {{ servers?: boolean }} [options] */
export function jestConfig(options = {}) {
  return {
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    transform: swcTransform,
    testMatch: ['<rootDir>/test/**/*.test.ts'],
    testTimeout: 60_000,
    // A failed beforeAll can leave servers it started behind; the run must still end, or CI
    // waits out its whole time limit.
    forceExit: true,
    reporters: ['default', fileURLToPath(new URL('./jest.summary-reporter.js', import.meta.url))],
    ...(options.servers
      ? {
          globalSetup: '@handoff/testkit/jest/global-setup',
          globalTeardown: '@handoff/testkit/jest/global-teardown',
        }
      : {}),
  };
}
