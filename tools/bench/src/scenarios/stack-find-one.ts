import { requestDocument, type RequestDocument } from '../fixtures/preload.ts';
import { coldPoolSize, COLD_POOL_VARIABLE } from '../fixtures/cold-pool.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import type { Fixture, Scenario } from '../types.ts';
import { AGENT_API_CONNECTIONS } from './gateway-requests.ts';
import { insertCollection } from './insert-collection.ts';

/** A database of its own on the stack's server, as stack-insert-one's (see there why). */
const DATABASE = 'handoff_bench_find';
const COLLECTION = 'requests';
/** Not an integration of the stack: these documents are read only here. */
const INTEGRATION_ID = 'int_benchrawfind0000000000000000';
/** Documents per `insertMany` while the pool is made. */
const BATCH = 1_000;

/**
 * The cold read's floor: one `findOne` by `_id` of intake's request document on the stack's
 * database server, a different document each call (going round as many as gateway-read-cold's
 * pool holds, inserted in setup), at the cold read's concurrency. A read that misses the gateway's
 * cache needs at least one such lookup, so its rate over this one reads as "so many raw lookups'
 * worth".
 */
export function stackFindOne(stack: Fixture<GatewayStack>): Scenario {
  return {
    name: 'stack-find-one',
    connections: AGENT_API_CONNECTIONS,
    description: `findOne by _id of a request-shaped document with the mongodb driver, in a database of its own on the shared stack's database server, a different one each call (${COLD_POOL_VARIABLE} of them, inserted in setup, read in turn), ${AGENT_API_CONNECTIONS} connections; closed loop`,
    uses: [stack],
    async setup(ctx) {
      const size = coldPoolSize(ctx.env);
      const { mongoUrl } = await ctx.use(stack);
      const collection = await insertCollection<RequestDocument>(
        ctx,
        mongoUrl,
        DATABASE,
        COLLECTION,
      );
      const ids: string[] = [];
      const at = Date.now() - size;
      for (let start = 0; start < size; start += BATCH) {
        ctx.signal.throwIfAborted();
        const batch = Array.from({ length: Math.min(BATCH, size - start) }, (_, i) =>
          requestDocument(INTEGRATION_ID, at + start + i),
        );
        await collection.insertMany(batch, { ordered: false });
        for (const doc of batch) ids.push(doc._id);
      }
      ctx.progress(`reading ${ids.length} documents in turn`);
      let next = 0;
      return {
        kind: 'call',
        async call() {
          const id = ids[next % ids.length] ?? '';
          next += 1;
          const found = await collection.findOne({ _id: id });
          if (found === null) throw new Error(`findOne found no document ${id}`);
        },
      };
    },
  };
}
