export * from './health-server.ts';
export * from './main.ts';
export * from './service.ts';
export * from './version.ts';
export * from './outbox.ts';
export * from './events.ts';
export * from './audit.ts';
export * from './lifecycle.ts';
