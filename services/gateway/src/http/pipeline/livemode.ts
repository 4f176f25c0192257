/** An API object: a JSON object that names its kind (`object: 'request'`, `'list'`, …). */
function isApiObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { object?: unknown }).object === 'string'
  );
}

function marked(value: Record<string, unknown>, livemode: boolean): Record<string, unknown> {
  // `livemode` comes right after `object`, where Stripe puts it too.
  const { object, ...rest } = value;
  return { object, livemode, ...rest };
}

/**
 * An agent's answer with `livemode` on its objects: the answer itself, a list's items, and the
 * objects an answer holds at its top (a proposal accepted with its job). A list is no object of
 * the data and gets none.
 */
export function withLivemode(body: unknown, livemode: boolean): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  if (record.object === 'list' && Array.isArray(record.data)) {
    return {
      ...record,
      data: record.data.map((item) => (isApiObject(item) ? marked(item, livemode) : item)),
    };
  }
  if (isApiObject(record)) return marked(record, livemode);
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key,
      isApiObject(value) ? marked(value, livemode) : value,
    ]),
  );
}
