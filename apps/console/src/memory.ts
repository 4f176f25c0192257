import { useState } from 'preact/hooks';

// What staff typed or chose (a reason being written, a list's filters), kept while they move
// between screens. Like the token, it lives in this page's memory only and never in the browser's
// storage: a reload or a sign-out forgets it.

const kept = new Map<string, unknown>();

/**
 * A component's state that outlives the screen it is on, under `key` (`reason.<request id>`):
 * what was kept, else `initial`; an `override` (the screen was opened with filters) wins.
 */
export function useKept<T>(key: string, initial: T, override?: T): [T, (next: T) => void] {
  const [value, setValue] = useState<T>(() => {
    if (override !== undefined) kept.set(key, override);
    return kept.has(key) ? (kept.get(key) as T) : initial;
  });
  return [
    value,
    (next: T) => {
      kept.set(key, next);
      setValue(next);
    },
  ];
}

/** A map kept under `key` for the page's life (the names of providers already looked up). */
export function keptMap<V>(key: string): Map<string, V> {
  const map = kept.get(key);
  if (map instanceof Map) return map as Map<string, V>;
  const made = new Map<string, V>();
  kept.set(key, made);
  return made;
}

/** Forgets everything kept: on sign-out, so the next person starts afresh. */
export const forgetKept = () => kept.clear();
