export * from './connection.ts';
export * from './errors.ts';
export * from './call.ts';
export * from './serve.ts';
export * from './jetstream.ts';
export * from './consume.ts';
export * from './access-cache.ts';
export * from './work-queue.ts';
