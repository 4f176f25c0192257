export * from './logger.ts';
export * from './metrics.ts';
export * from './prometheus-text.ts';
export * from './telemetry.ts';
export * from './http-metrics.ts';
