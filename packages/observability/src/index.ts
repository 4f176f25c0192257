export * from './logger.ts';
export * from './telemetry.ts';
