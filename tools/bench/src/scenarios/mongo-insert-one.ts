import { startMongo } from '@handoff/testkit';
import type { Scenario } from '../types.ts';
import { ownServer } from './own-server.ts';
import { insertCollection } from './insert-collection.ts';

const DATABASE = 'handoff_bench';
const COLLECTION = 'inserts';

/** One small document per call, acknowledged, through the official driver. */
export const mongoInsertOne: Scenario = {
  name: 'mongo-insert-one',
  description:
    'single-document insertOne with the mongodb driver on the real MongoDB-wire server; closed loop',
  async setup(ctx) {
    const server = await ownServer(ctx, startMongo);

    const collection = await insertCollection(ctx, server.url, DATABASE, COLLECTION);

    let sequence = 0;
    return {
      kind: 'call',
      call: () =>
        collection.insertOne({
          seq: (sequence += 1),
          at: new Date(),
          kind: 'bench',
          payload: { note: 'a small document', tags: ['a', 'b'] },
        }),
    };
  },
};
