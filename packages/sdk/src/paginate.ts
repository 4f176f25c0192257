/** One page of a list: `{object: 'list', data, has_more}`, newest first. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
}

/**
 * Every item of a list, page after page (`starting_after` = the last id seen), fetching the
 * next page only when the caller has consumed the previous one.
 */
export async function* paginate<T extends { id: string }>(
  fetchPage: (cursor: { limit: number; starting_after?: string }) => Promise<Page<T>>,
  limit = 100,
): AsyncGenerator<T, void, undefined> {
  let startingAfter: string | undefined;
  for (;;) {
    const page = await fetchPage({
      limit,
      ...(startingAfter === undefined ? {} : { starting_after: startingAfter }),
    });
    for (const item of page.data) yield item;
    const last = page.data.at(-1);
    if (!page.has_more || last === undefined) return;
    startingAfter = last.id;
  }
}

/** Collects an async iterable into an array (handy for short lists). */
export async function toArray<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
