// Every (state, action) pair of the two machines this service enforces, driven from the machine
// data in @handoff/contracts: a legal pair gives the documented state and event, an illegal one
// gives invalid_state_transition naming the allowed actions and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import {
  allowedActions,
  deadlineFor,
  nextState,
  Payment,
  PAYMENT_MACHINE,
  PAYMENT_REQUEST_MACHINE,
  paymentRecordOps,
  type PaymentAction,
  type PaymentRequestAction,
  type StateMachine,
} from '@handoff/contracts';
import { auditCollectionName } from '@handoff/runtime';
import { eventually } from '@handoff/testkit';
import {
  approvedPayment,
  createPaymentRequest,
  decide,
  eventsAbout,
  newRequest,
  opts,
  rawPayments,
  rawRequests,
  settle,
  staff,
  startStack,
  waitForEvents,
  type Stack,
} from './support.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack('machines');
});

afterAll(async () => {
  await stack.stop();
});

/** The shortest list of actions that leads from the machine's initial state to `target`. */
function pathTo<S extends string, A extends string>(machine: StateMachine<S, A>, target: S): A[] {
  const queue: { state: S; path: A[] }[] = [{ state: machine.initial, path: [] }];
  const seen = new Set<S>([machine.initial]);
  for (let item = queue.shift(); item; item = queue.shift()) {
    if (item.state === target) return item.path;
    for (const [action, next] of Object.entries(machine.moves[item.state]) as [A, S][]) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push({ state: next, path: [...item.path, action] });
    }
  }
  throw new Error(`${machine.resource}: ${target} cannot be reached`);
}

function pairs<S extends string, A extends string>(machine: StateMachine<S, A>): [S, A][] {
  const actions = Object.keys(machine.events) as A[];
  return machine.states.flatMap((state) => actions.map((action): [S, A] => [state, action]));
}

const audit = () => stack.service.store.db.collection(auditCollectionName('payments'));

describe('PAYMENT_REQUEST_MACHINE', () => {
  const machine = PAYMENT_REQUEST_MACHINE;

  /** Each action as the service takes it: staff decide over the bus, the sweep expires. */
  async function act(id: string, action: PaymentRequestAction): Promise<{ status: string }> {
    if (action === 'expire') {
      return stack.service.moves.request(id, 'expire', { actor: 'system', call_request_id: null });
    }
    return decide(stack, id, action === 'approve' ? 'approved' : 'rejected', 'Not agreed');
  }

  async function requestIn(state: (typeof machine.states)[number]) {
    const requestId = await newRequest(stack);
    const created = await createPaymentRequest(stack, requestId, { amount: 12.5 });
    for (const action of pathTo(machine, state)) await act(created.id, action);
    await stack.service.sweeps.idle();
    return created.id;
  }

  it('starts pending_approval with a deadline and announces payment.requested', async () => {
    const requestId = await newRequest(stack);
    const created = await createPaymentRequest(stack, requestId);
    expect(created.status).toBe(machine.initial);
    const raw = await rawRequests(stack).findOne({ _id: created.id });
    expect(raw?.deadline_at).toEqual(
      deadlineFor(machine, machine.initial, raw?.created_at ?? new Date()),
    );
    await waitForEvents(stack, created.id, 'payment.requested');
  });

  it.each(pairs(machine))('%s + %s', async (state, action) => {
    const id = await requestIn(state);
    // Published messages leave the outbox in a batch; compare settled documents.
    await stack.service.outbox.flush();
    const before = await rawRequests(stack).findOne({ _id: id });
    const paymentsBefore = await rawPayments(stack).countDocuments({ payment_request_id: id });
    const next = nextState(machine, state, action);

    if (next === undefined) {
      await settle(stack);
      const eventsBefore = eventsAbout(stack, id).length;
      await expect(act(id, action)).rejects.toMatchObject({
        code: 'invalid_state_transition',
        details: {
          resource: 'payment_request',
          current_state: state,
          action,
          allowed_actions: allowedActions(machine, state),
        },
      });
      await settle(stack);
      expect(await rawRequests(stack).findOne({ _id: id })).toEqual(before);
      expect(await rawPayments(stack).countDocuments({ payment_request_id: id })).toBe(
        paymentsBefore,
      );
      expect(eventsAbout(stack, id)).toHaveLength(eventsBefore);
      return;
    }

    const moved = await act(id, action);
    expect(moved.status).toBe(next);
    const raw = await rawRequests(stack).findOne({ _id: id });
    expect(raw).toMatchObject({ status: next, decided_at: expect.any(Date) });
    expect(raw?.deadline_at).toEqual(deadlineFor(machine, next, raw?.decided_at ?? new Date()));
    const event = machine.events[action];
    if (event) {
      // The creation announced `created_event` already; the move adds one more of its kind.
      const events = await waitForEvents(stack, id, event, event === machine.created_event ? 2 : 1);
      expect(events.map((e) => e.event.data.object.status)).toContain(next);
    } else {
      await settle(stack);
      const announced = eventsAbout(stack, id).filter((e) => e.event.data.object.status === next);
      expect(announced).toEqual([]);
    }
    // Every move is in the audit log, with the state before and after.
    const entry = await eventually(
      async () =>
        (await audit().findOne({ target_id: id, action: `payment_request.${next}` })) ?? undefined,
      { what: `the audit entry of ${action}` },
    );
    expect(entry).toMatchObject({
      actor: action === 'expire' ? 'system' : staff.actor,
      before: { status: state },
      after: { status: next },
    });
  });
});

describe('PAYMENT_MACHINE', () => {
  const machine = PAYMENT_MACHINE;

  /** Each action as staff take it with the manual provider. */
  function act(id: string, action: PaymentAction) {
    return action === 'complete'
      ? call(
          stack.nc,
          paymentRecordOps.confirm,
          { id, actor: staff.actor, reference: 'WIRE-1' },
          opts,
        )
      : call(stack.nc, paymentRecordOps.fail, { id, actor: staff.actor, reason: 'bounced' }, opts);
  }

  async function paymentIn(state: (typeof machine.states)[number]) {
    const { payment } = await approvedPayment(stack);
    for (const action of pathTo(machine, state)) await act(payment.id, action);
    return payment.id;
  }

  it('starts pending with a deadline, created by the approval', async () => {
    const { payment, paymentRequest } = await approvedPayment(stack, 99.99, 'EUR');
    expect(Payment.parse(payment)).toMatchObject({
      payment_request_id: paymentRequest.id,
      status: machine.initial,
      provider: 'manual',
      amount: 99.99,
      currency: 'EUR',
    });
    const raw = await rawPayments(stack).findOne({ _id: payment.id });
    expect(raw?.deadline_at).toEqual(
      deadlineFor(machine, machine.initial, raw?.created_at ?? new Date()),
    );
  });

  it.each(pairs(machine))('%s + %s', async (state, action) => {
    const id = await paymentIn(state);
    await settle(stack);
    // Published messages leave the outbox in a batch; compare settled documents.
    await stack.service.outbox.flush();
    const before = await rawPayments(stack).findOne({ _id: id });
    const eventsBefore = eventsAbout(stack, id).length;
    const next = nextState(machine, state, action);

    if (next === undefined) {
      await expect(act(id, action)).rejects.toMatchObject({
        code: 'invalid_state_transition',
        details: {
          resource: 'payment',
          current_state: state,
          action,
          allowed_actions: allowedActions(machine, state),
        },
      });
      await settle(stack);
      expect(await rawPayments(stack).findOne({ _id: id })).toEqual(before);
      expect(eventsAbout(stack, id)).toHaveLength(eventsBefore);
      return;
    }

    const moved = await act(id, action);
    expect(moved).toMatchObject({ id, status: next, deadline_at: null });
    const event = machine.events[action];
    if (event) {
      const [announced] = await waitForEvents(stack, id, event);
      expect(announced?.event.data.object).toEqual(moved);
    } else {
      await settle(stack);
      expect(eventsAbout(stack, id)).toHaveLength(eventsBefore);
    }
    const entry = await eventually(
      async () =>
        (await audit().findOne({ target_id: id, action: `payment.${next}` })) ?? undefined,
      { what: `the audit entry of ${action}` },
    );
    expect(entry).toMatchObject({ actor: staff.actor, before: { status: state } });
  });
});
