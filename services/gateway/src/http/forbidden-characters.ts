import type { FieldError } from './errors.ts';

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

// C0 controls and DEL: never part of an id, a cursor or any other path or query value.
const isControl = (value: string) =>
  [...value].some((c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });

/**
 * One error per string that holds a character the stores cannot keep or that no id has: NUL
 * anywhere (PostgreSQL text refuses it, so it would surface as a 500 from a service), and in path
 * and query values any control character.
 */
export function forbiddenCharacters(
  value: unknown,
  root: '' | '/query' | '/params',
  pointer: string = root,
): FieldError[] {
  if (typeof value === 'string') {
    const bad = root === '' ? value.includes('\u0000') : isControl(value);
    return bad
      ? [
          {
            pointer,
            code: 'invalid_characters',
            detail:
              root === ''
                ? 'Text may not contain the NUL character (U+0000).'
                : 'Path and query values may not contain control characters.',
          },
        ]
      : [];
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => forbiddenCharacters(item, root, `${pointer}/${index}`));
  }
  if (value !== null && typeof value === 'object') {
    // Member names are left to the schema: every request body is a closed object whose unknown
    // members are refused or dropped, so a name with NUL never reaches a store.
    return Object.entries(value).flatMap(([key, item]) =>
      forbiddenCharacters(item, root, `${pointer}/${escapePointer(key)}`),
    );
  }
  return [];
}
