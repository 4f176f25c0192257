import { z } from 'zod';
import { LANGUAGE_TAG_PATTERN } from './limits.ts';

/*
 * String fields whose checks are exactly what the generated JSON Schema says, so that a client (or
 * a property-based tester) that trusts the OpenAPI document is never refused a value it allows,
 * nor served a value it forbids:
 * - JSON Schema counts `maxLength` in Unicode code points; JavaScript's `.length` (and so zod's
 *   `.max()`) counts UTF-16 code units, which makes an emoji count twice;
 * - a trimmed field's limits apply to the value as sent, before the trim;
 * - "not blank" is a `pattern` naming the characters that `String.prototype.trim` removes, spelled
 *   out so that every regex dialect (ECMA, Python, Rust) reads it alike;
 * - email addresses and URLs are checked by an ASCII `pattern` that lies inside the `format` the
 *   document also names, so that no validator's reading of `format` can disagree with the API.
 */

/** At least one character that `String.prototype.trim` keeps. */
export const NOT_BLANK =
  /[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/** The length as JSON Schema counts it: code points, so an emoji is one character, not two. */
const codePoints = (value: string) => Array.from(value).length;

/** At most `max` characters as JSON Schema counts them (code points), stated as `maxLength`. */
function maxChars(max: number) {
  return (value: string, ctx: z.RefinementCtx) => {
    if (codePoints(value) > max) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'string',
        maximum: max,
        inclusive: true,
        input: value,
        message: `Too big: expected string to have <=${max} characters`,
      });
    }
  };
}

/**
 * Free text: 1 to `max` characters as sent, not blank; the stored value is trimmed. The document
 * says `maxLength: max` and a `pattern` that asks for one character other than white space.
 */
export function trimmedText(max: number) {
  return z
    .string()
    .superRefine(maxChars(max))
    .regex(NOT_BLANK, 'must not be blank')
    .trim()
    .meta({ minLength: 1, maxLength: max });
}

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/**
 * An address `local@domain` (RFC 5322 dot-atom, DNS labels): HTML5's address pattern, less its
 * leading, trailing and doubled dots in the local part, which RFC 5321 does not allow.
 */
export const EMAIL_PATTERN = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*@${LABEL}(?:\\.${LABEL})*$`);
/** RFC 5321 §4.5.3.1.1: at most 64 octets before the `@`. */
export const EMAIL_LOCAL_MAX = 64;

/** An email address (`format: email` with {@link EMAIL_PATTERN}) of at most `max` characters. */
export function emailAddress(max: number) {
  return z
    .email({ pattern: EMAIL_PATTERN })
    .max(max)
    .refine((value) => value.indexOf('@') <= EMAIL_LOCAL_MAX, {
      message: `at most ${EMAIL_LOCAL_MAX} characters before the @`,
    });
}

const URL_CHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})";

/**
 * An `http` or `https` URL with a DNS host name (its last label starts with a letter), an optional
 * port, then path, query and fragment in RFC 3986 characters (others percent-encoded).
 */
export const HTTP_URL_PATTERN = new RegExp(
  `^[Hh][Tt][Tt][Pp][Ss]?://(?:${LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?` +
    `(?::[0-9]{1,5})?(?:/${URL_CHAR}*)*(?:\\?(?:${URL_CHAR}|[/?])*)?(?:#(?:${URL_CHAR}|[/?])*)?$`,
);

/** A web site's address (`format: uri` with {@link HTTP_URL_PATTERN}) of at most `max` characters. */
export function httpUrl(max: number) {
  return z
    .string()
    .max(max)
    .regex(HTTP_URL_PATTERN, 'an http:// or https:// URL with a host name')
    .meta({ format: 'uri' });
}

/** A language as a BCP 47 primary tag, optionally with a region: `en`, `de`, `pt-BR`. */
export const languageTag = () =>
  z.string().regex(LANGUAGE_TAG_PATTERN, 'a BCP 47 language tag such as en or pt-BR');
