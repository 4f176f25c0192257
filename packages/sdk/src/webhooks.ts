import { Webhook } from 'standardwebhooks';
import type { Event } from './types.ts';

/**
 * Verifies a Standard Webhooks delivery from Handoff and returns its event. Give it the body
 * exactly as it arrived (before any JSON parsing) and the request's headers; it throws when the
 * signature, the id or the timestamp (5 minutes either way) does not check out.
 */
export function verifyWebhook(
  secret: string,
  rawBody: string | Buffer,
  headers: Record<string, string | string[] | undefined> | Headers,
): Event {
  const get = (name: string): string => {
    if (headers instanceof Headers) return headers.get(name) ?? '';
    const value = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(' ') : (value ?? '');
  };
  const wanted = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  return new Webhook(secret).verify(
    body,
    Object.fromEntries(wanted.map((name) => [name, get(name)])),
  ) as Event;
}
