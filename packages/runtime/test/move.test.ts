import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deadlineFor, DISPUTE_MACHINE, newId, type DisputeAction } from '@handoff/contracts';
import { connectBus, ensureStreams, withOperation, type Bus } from '@handoff/bus';
import { createLogger } from '@handoff/observability';
import { connectStore, type Store } from '@handoff/store';
import { freshDatabase, natsOptions } from '@handoff/testkit';
import type { Collection } from 'mongodb';
import {
  announceToRequest,
  createOutbox,
  KEPT_FOR_MS,
  markerOf,
  MOVE_ATTEMPTS,
  moveDocument,
  OUTBOX_WINDOW_MS,
  OUTBOX_WRITERS,
  outboxMessage,
  payloadOf,
  withOutbox,
  type Move,
  type OutboxDocument,
  type OutboxFields,
  type OutboxMessage,
} from '../src/index.ts';

const logger = createLogger({ service: 'move-test', version: '0', level: 'silent' });
const DAY = 24 * 60 * 60 * 1000;

interface CaseDoc extends OutboxFields {
  _id: string;
  request_id: string;
  status: (typeof DISPUTE_MACHINE.states)[number];
  note: string | null;
  deadline_at: Date | null;
  updated_at: Date;
}

let store: Store;
let where: { url: string; database: string };
let cases: Collection<CaseDoc>;
let published: { id: string; messages: OutboxMessage[] }[];

beforeAll(async () => {
  where = freshDatabase('move');
  store = await connectStore({ ...where, appName: 'move-test', logger });
  cases = store.db.collection<CaseDoc>('cases');
});

let bus: Bus | undefined;

afterAll(async () => {
  await bus?.nc.close();
  await store.close();
});

const deps = () => {
  published = [];
  return {
    store,
    publish: async <T extends object>(_c: Collection<T>, id: string, messages: OutboxMessage[]) => {
      published.push({ id, messages });
    },
  };
};

async function newCase(status: CaseDoc['status'] = 'open'): Promise<CaseDoc> {
  const at = new Date();
  const doc: CaseDoc = {
    _id: newId('dsp'),
    request_id: newId('req'),
    status,
    note: null,
    deadline_at: deadlineFor(DISPUTE_MACHINE, status, at),
    updated_at: at,
  };
  await cases.insertOne(withOutbox(doc, []));
  return doc;
}

type CaseMove = Move<
  CaseDoc,
  CaseDoc['status'],
  DisputeAction,
  'dispute.created' | 'dispute.updated'
>;

const spec = (id: string, action: DisputeAction, extra: Partial<CaseMove> = {}): CaseMove => ({
  machine: DISPUTE_MACHINE,
  collection: cases,
  id,
  action,
  notFound: 'dispute_not_found',
  view: (doc) => ({ object: 'dispute', id: doc._id, status: doc.status, note: doc.note }),
  announce: announceToRequest,
  ...extra,
});

describe('moveDocument', () => {
  it('writes the next state, its deadline and the event with its audit entry in one write', async () => {
    const before = await newCase();
    const now = new Date(before.updated_at.getTime() + DAY);
    const moved = await moveDocument(
      deps(),
      spec(before._id, 'escalate', {
        now,
        change: () => ({ note: 'to staff' }),
        audit: { service: 'milestones', actor: 'staff-1', call_id: 'call-1' },
      }),
    );
    expect(moved).toMatchObject({
      status: 'under_review',
      note: 'to staff',
      updated_at: now,
      deadline_at: deadlineFor(DISPUTE_MACHINE, 'under_review', now),
    });
    expect(moved.outbox_pending).toEqual(markerOf(moved.outbox?.[0] ?? { created_at: now }));
    const [message] = moved.outbox ?? [];
    // The body is stored as the JSON text that is published.
    expect(typeof message?.payload).toBe('string');
    expect(message && payloadOf(message)).toMatchObject({
      type: 'dispute.updated',
      data: { request_id: before.request_id, object: { id: before._id, status: 'under_review' } },
    });
    expect(message).toMatchObject({
      subject: 'handoff.events.dispute.updated',
      local: {
        audit: {
          actor: 'staff-1',
          action: 'dispute.escalate',
          target_type: 'dispute',
          call_id: 'call-1',
          before: { status: 'open' },
          after: { status: 'under_review', note: 'to staff' },
        },
      },
    });
    expect(published).toEqual([{ id: before._id, messages: [message] }]);
  });

  it('keeps the deadline on a move that keeps the state, and still moves updated_at on', async () => {
    const before = await newCase();
    // The clock is behind the document: updated_at, the compare-and-set token, still moves on.
    const moved = await moveDocument(
      deps(),
      spec(before._id, 'comment', { now: new Date(before.updated_at.getTime() - 1_000) }),
    );
    expect(moved.deadline_at).toEqual(before.deadline_at);
    expect(moved.updated_at).toEqual(new Date(before.updated_at.getTime() + 1));
  });

  it('refuses an illegal move with the one 409 shape and writes nothing', async () => {
    const before = await newCase('resolved');
    await expect(moveDocument(deps(), spec(before._id, 'escalate'))).rejects.toMatchObject({
      code: 'invalid_state_transition',
      message: 'cannot escalate a dispute that is resolved; it allows no further moves.',
      details: {
        resource: 'dispute',
        current_state: 'resolved',
        action: 'escalate',
        allowed_actions: [],
      },
    });
    expect(await cases.findOne({ _id: before._id })).toEqual({ ...before, outbox: [] });
    expect(published).toEqual([]);
  });

  it('answers its not-found code for a document the caller may not see, and for none', async () => {
    const before = await newCase();
    await expect(
      moveDocument(deps(), spec(before._id, 'comment', { visible: () => false })),
    ).rejects.toMatchObject({ code: 'dispute_not_found', message: 'No such dispute.' });
    await expect(moveDocument(deps(), spec('dsp_none', 'comment'))).rejects.toMatchObject({
      code: 'dispute_not_found',
    });
  });

  it('answers a document already where the caller wants it as it is, writing nothing', async () => {
    const before = await newCase('resolved');
    const answer = await moveDocument(
      deps(),
      spec(before._id, 'resolve', { unchanged: (doc) => doc.status === 'resolved' }),
    );
    expect(answer).toEqual({ ...before, outbox: [] });
    expect(published).toEqual([]);
  });

  it('reads again and retries a compare-and-set lost to another writer', async () => {
    const before = await newCase();
    let attempts = 0;
    const moved = await moveDocument(
      deps(),
      spec(before._id, 'escalate', {
        guard: async (doc) => {
          attempts += 1;
          // Another replica writes between this read and the move's write, once.
          if (attempts === 1) {
            await cases.updateOne(
              { _id: doc._id },
              { $set: { note: 'theirs', updated_at: new Date(doc.updated_at.getTime() + 5) } },
            );
          }
        },
      }),
    );
    expect(attempts).toBe(2);
    expect(moved).toMatchObject({ status: 'under_review', note: 'theirs' });
    expect(published).toHaveLength(1);
  });

  it(`answers concurrent_change after ${MOVE_ATTEMPTS} lost writes, and changes nothing`, async () => {
    const before = await newCase();
    let attempts = 0;
    await expect(
      moveDocument(
        deps(),
        spec(before._id, 'escalate', {
          guard: async (doc) => {
            attempts += 1;
            await cases.updateOne(
              { _id: doc._id },
              { $set: { updated_at: new Date(doc.updated_at.getTime() + 5) } },
            );
          },
        }),
      ),
    ).rejects.toMatchObject({ code: 'concurrent_change' });
    expect(attempts).toBe(MOVE_ATTEMPTS);
    expect(await cases.findOne({ _id: before._id })).toMatchObject({ status: 'open', outbox: [] });
    expect(published).toEqual([]);
  });

  it('answers a retry of the same operation as done, once its first attempt moved the document', async () => {
    // `npm run chaos` found retries refused as illegal moves: a replica killed after its write
    // (or a bus timeout) lost the first answer, the gateway released the Idempotency-Key, and
    // the SDK's retry (same key, so the same operation) found the proposal already accepted.
    const before = await newCase();
    const first = await withOperation('op_retried', () =>
      moveDocument(deps(), spec(before._id, 'escalate')),
    );
    expect(first).toMatchObject({ status: 'under_review', last_operation: 'op_retried' });
    const again = await withOperation('op_retried', () =>
      moveDocument(deps(), spec(before._id, 'escalate')),
    );
    expect(again).toMatchObject({ status: 'under_review', updated_at: first.updated_at });
    expect(published).toEqual([]);
    // Another operation (or none) asking for the same move is refused as before.
    await expect(
      withOperation('op_other', () => moveDocument(deps(), spec(before._id, 'escalate'))),
    ).rejects.toMatchObject({ code: 'invalid_state_transition' });
    await expect(moveDocument(deps(), spec(before._id, 'escalate'))).rejects.toMatchObject({
      code: 'invalid_state_transition',
    });
  });

  it('lets one of two replicas make a move, and keeps what another write of theirs changed', async () => {
    // `npm run chaos` found a payment completed twice: on FerretDB, which reads a document,
    // updates it in Go and writes it whole, one payments replica's write to the payment (its
    // outbox removal) put it back as pending over the other's confirmation. Two stores here are
    // two replicas (their own connections and serializers), with the cross-process locks the
    // stack turns on for several replicas (STORE_LOCKS).
    // Without the locks, this round found 8 of 60 moves made twice and writes put back.
    const mine = await connectStore({ ...where, appName: 'move-test-1', logger, locks: true });
    const other = await connectStore({ ...where, appName: 'move-test-2', logger, locks: true });
    try {
      let doubles = 0;
      let lost = 0;
      for (let round = 0; round < 60; round += 1) {
        const before = await newCase();
        let sent = 0;
        const racer = (which: Store) =>
          moveDocument(
            {
              store: which,
              publish: async <T extends object>(
                _c: Collection<T>,
                _id: string,
                m: OutboxMessage[],
              ) => {
                sent += m.length;
              },
            },
            spec(before._id, 'escalate'),
          ).catch((error: unknown) => {
            expect(error).toMatchObject({ code: 'invalid_state_transition' });
          });
        const note = (which: Store) =>
          which.serialize(cases, before._id, () =>
            which.db
              .collection<CaseDoc>('cases')
              .updateOne({ _id: before._id }, { $set: { note: 'kept' } }),
          );
        await Promise.all([racer(mine), note(other), racer(other), racer(mine)]);
        const after = await cases.findOne({ _id: before._id });
        if (sent !== 1) doubles += 1;
        if (after?.status !== 'under_review' || after.note !== 'kept') lost += 1;
      }
      expect({ doubles, lost }).toEqual({ doubles: 0, lost: 0 });
    } finally {
      await mine.close();
      await other.close();
    }
  });

  it('keeps the messages and windows of recent writes in a kept document, and compares the outbox read', async () => {
    const { servers, user, pass } = natsOptions();
    bus = await connectBus({ url: servers, user, password: pass, name: 'move-test', logger });
    await ensureStreams(bus.jsm);
    const kept = store.db.collection<CaseDoc>('kept_cases');
    const asOutbox = kept as unknown as Collection<OutboxDocument>;
    const outbox = createOutbox({
      js: bus.js,
      logger,
      collections: [asOutbox],
      kept: [asOutbox],
      writers: store.db.collection(OUTBOX_WRITERS),
    });
    await outbox.register();
    const message = (ageMs: number) => ({
      ...outboxMessage(newId('evt'), 'handoff.audit.movetest', {}),
      created_at: new Date(Date.now() - ageMs),
    });
    const windowOf = (writer: string, ageMs: number) =>
      `${writer}:${Math.floor((Date.now() - ageMs) / OUTBOX_WINDOW_MS)}`;
    const longAgo = message(KEPT_FOR_MS + 60_000);
    const recent = message(1_000);
    // Published by this very process: the move drops it, so the document stays small.
    const publishedHere = message(500);
    const recentWindow = windowOf('w_recent', 1_000);
    const at = new Date();
    const before: CaseDoc = {
      _id: newId('dsp'),
      request_id: newId('req'),
      status: 'open',
      note: null,
      deadline_at: deadlineFor(DISPUTE_MACHINE, 'open', at),
      updated_at: at,
      outbox: [longAgo, recent, publishedHere],
      outbox_window: [windowOf('w_long_ago', KEPT_FOR_MS + 60_000), recentWindow],
    };
    await kept.insertOne(before);
    await outbox.publish(asOutbox, before._id, [publishedHere]);

    // Another writer adds a message between the move's read and its write, once: the move's
    // compare-and-set sees the outbox changed, reads again and keeps that message too.
    const other = message(0);
    let raced = false;
    const moved = await moveDocument(
      { ...deps(), outbox },
      spec(before._id, 'escalate', {
        collection: kept,
        guard: async () => {
          if (raced) return;
          raced = true;
          await kept.updateOne({ _id: before._id }, { $push: { outbox: other } });
        },
      }),
    );
    const [event] = published.flatMap((p) => p.messages);
    expect(moved.outbox).toEqual([recent, other, event]);
    expect(moved.outbox_window).toEqual([
      recentWindow,
      expect.stringMatching(/^w_[0-9a-f-]+:\d+$/),
    ]);
    expect(moved.outbox_pending).toBeUndefined();
    expect(await kept.findOne({ _id: before._id })).toEqual(moved);
  });
});
