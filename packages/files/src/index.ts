export * from './store.ts';
export * from './gridfs.ts';
export * from './catalog.ts';
export * from './endpoints.ts';
export * from './setup.ts';
