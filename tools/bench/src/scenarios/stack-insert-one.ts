import { requestDocument, type RequestDocument } from '../fixtures/preload.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import type { Fixture, Scenario } from '../types.ts';
import { AGENT_API_CONNECTIONS } from './gateway-requests.ts';
import { insertCollection } from './insert-collection.ts';

/**
 * A database of its own on the stack's server: the same server, engine and settings the
 * services write to, without the services' own writes queueing in the same file (FerretDB over
 * SQLite has one writer per database).
 */
const DATABASE = 'handoff_bench_raw';
const COLLECTION = 'requests';
/** Not an integration of the stack: these documents are never read. */
const INTEGRATION_ID = 'int_benchrawinsert00000000000000';

/**
 * The write scenarios' floor: one `insertOne` of a request-shaped document (intake's own
 * document, from the growth preload), acknowledged, on the stack's database server, at the
 * write scenarios' concurrency. Every write of the agent API and the engagement stores at least
 * one such document, so its rate over this one reads as "so many raw inserts' worth".
 */
export function stackInsertOne(stack: Fixture<GatewayStack>): Scenario {
  return {
    name: 'stack-insert-one',
    connections: AGENT_API_CONNECTIONS,
    description: `insertOne of a request-shaped document with the mongodb driver into a database of its own on the shared stack's database server, ${AGENT_API_CONNECTIONS} connections; closed loop`,
    uses: [stack],
    async setup(ctx) {
      const { mongoUrl } = await ctx.use(stack);
      const collection = await insertCollection<RequestDocument>(
        ctx,
        mongoUrl,
        DATABASE,
        COLLECTION,
      );
      return {
        kind: 'call',
        call: () => collection.insertOne(requestDocument(INTEGRATION_ID, Date.now())),
      };
    },
  };
}
