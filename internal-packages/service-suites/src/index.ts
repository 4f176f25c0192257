// The shared jest suites, apart from the testkit's servers (`@handoff/testkit`), which the global
// setup and the dev stack load outside jest: these import @jest/globals and the runtime.
export * from './backend-service.ts';
export * from './machine.ts';
