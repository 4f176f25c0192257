import { useState } from 'preact/hooks';
import { useSession } from './session.ts';
import { drafts, draftKey } from './storage.ts';

/**
 * A text a person writes, kept as a draft in this tab's sessionStorage under `what` (per
 * provider) while they type: a reload, a lost connection or a sign-out does not lose it.
 */
export function useDraft(what: string): [string, (value: string) => void] {
  const { session } = useSession();
  const key = draftKey(session.provider.id, what);
  const [value, setValue] = useState(() => drafts.get(key));
  return [
    value,
    (next: string) => {
      setValue(next);
      drafts.set(key, next);
    },
  ];
}

/** Like {@link useDraft}, for a form of several fields kept together. */
export function useDraftForm<T extends object>(
  what: string,
  empty: T,
): [T, (next: T) => void, () => void] {
  const [text, setText] = useDraft(what);
  let value = empty;
  if (text) {
    try {
      value = { ...empty, ...(JSON.parse(text) as Partial<T>) };
    } catch {
      // A draft from another version of the form: start afresh.
    }
  }
  return [value, (next: T) => setText(JSON.stringify(next)), () => setText('')];
}
