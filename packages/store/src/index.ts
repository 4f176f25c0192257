export * from './store.ts';
export * from './pagination.ts';
