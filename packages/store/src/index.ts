export * from './store.ts';
export * from './pagination.ts';
export * from './filters.ts';
export * from './serialize.ts';
export * from './bulk.ts';
export * from './duplicates.ts';
export * from './group-commit.ts';
export * from './locks.ts';
