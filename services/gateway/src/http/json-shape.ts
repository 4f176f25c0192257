import { MAX_JSON_DEPTH } from '@handoff/contracts';

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

interface Frame {
  /** Member names seen so far; undefined for an array. */
  names: Set<string> | undefined;
  /** The next string in this object is a member name. */
  expectName: boolean;
  /** Where this container is, as a JSON pointer. */
  pointer: string;
  /** The member name or index the next value gets. */
  next: string;
  index: number;
}

/**
 * What is wrong with the shape of `text`, which must be valid JSON (parse it first), or undefined.
 * Nesting deeper than {@link MAX_JSON_DEPTH} is refused. So is a member name repeated within one
 * object: JSON.parse keeps the last one while other parsers keep the first or refuse, so a body
 * that a proxy, a log or a signature check reads one way could be acted on another way; I-JSON
 * (RFC 7493) forbids them. Names are compared decoded, so `"a"` and `"\u0061"` are the same name.
 */
export function jsonShapeProblem(text: string): string | undefined {
  const stack: Frame[] = [];
  const childPointer = (frame: Frame | undefined) =>
    frame
      ? `${frame.pointer}/${escapePointer(frame.names ? frame.next : String(frame.index))}`
      : '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '{' || c === '[') {
      if (stack.length >= MAX_JSON_DEPTH) {
        return `The body nests deeper than ${MAX_JSON_DEPTH} levels.`;
      }
      stack.push({
        names: c === '{' ? new Set() : undefined,
        expectName: c === '{',
        pointer: childPointer(top),
        next: '',
        index: 0,
      });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      if (top?.names) top.expectName = true;
      else if (top) top.index += 1;
    } else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (top?.names && top.expectName) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.names.has(name)) {
          const pointer = `${top.pointer}/${escapePointer(name)}`;
          return `The body repeats the member name at ${pointer}; each name may appear once per object.`;
        }
        top.names.add(name);
        top.next = name;
        top.expectName = false;
      }
      i = end;
    }
  }
  return undefined;
}
