export * from './connection.ts';
export * from './errors.ts';
export * from './request.ts';
export * from './serve.ts';
export * from './jetstream.ts';
export * from './consume.ts';
export * from './access-cache.ts';
