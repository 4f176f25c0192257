export * from './events.ts';
export * from './health.ts';
export * from './ids.ts';
export * from './problem.ts';
export * from './services.ts';
export * from './subjects.ts';
