import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The operation the bus call being handled carries out (`Handoff-Operation`), for the code that
 * records it deep below the handler (runtime `moveDocument`) without every handler passing it on.
 */
const current = new AsyncLocalStorage<string>();

/** Runs `task` as part of `operation` (nothing when there is none). */
export function withOperation<T>(operation: string | null, task: () => Promise<T>): Promise<T> {
  return operation ? current.run(operation, task) : task();
}

/** The operation of the bus call this code runs for, if its caller named one. */
export function currentOperation(): string | undefined {
  return current.getStore();
}
