// A closed request takes no more work (OWASP API6, business flow): every action that would add to
// a completed or cancelled request is refused with 409 `request_closed`, and cancelling settles
// what hangs on it. Real gateway, real services, real HTTP.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@handoff/testkit';
import type { Onboarded } from './support/http.ts';
import { PROPOSAL, useStack, type OwnedRequest, type ProviderAccount } from './support/stack.ts';

const stack = useStack('gw_closure');
let agent: Onboarded;
let plumber: ProviderAccount;
let rival: ProviderAccount;

beforeAll(async () => {
  [agent, plumber, rival] = await Promise.all([
    stack.agentOf(),
    stack.providerOf(),
    stack.providerOf(),
  ]);
});

const closed = (state: string) => ({
  status: 409,
  body: {
    code: 'request_closed',
    current_state: state,
    detail: expect.stringContaining(`The request is ${state}`),
  },
});

const cancel = async (requestId: string) => {
  const cancelled = await stack.asStaff(`/requests/${requestId}`, {
    method: 'PATCH',
    body: { status: 'cancelled', reason: 'The customer changed their mind.' },
  });
  expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
};

describe('a cancelled request', () => {
  let request: OwnedRequest;
  let proposalId: string;
  let paymentRequestId: string;

  beforeAll(async () => {
    request = await stack.routedRequest(agent, [plumber, rival]);
    proposalId = await stack.propose(plumber, request.id);
    const asked = await stack.asCustomer(agent, request, '/payment-request', {
      method: 'POST',
      body: { amount: 40, description: 'Deposit' },
    });
    expect(asked).toMatchObject({ status: 201, body: { status: 'pending_approval' } });
    paymentRequestId = String(asked.body.id);
    // Both sides could talk while the request was open.
    expect(
      (
        await stack.asCustomer(agent, request, '/message', {
          method: 'POST',
          body: { message: 'Before the cancel.' },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await stack.asProvider(plumber, `/requests/${request.id}/messages`, {
          method: 'POST',
          body: { message: 'Before the cancel.' },
        })
      ).status,
    ).toBe(201);
    await cancel(request.id);
  });

  it('refuses the agent’s message', async () => {
    expect(
      await stack.asCustomer(agent, request, '/message', {
        method: 'POST',
        body: { message: 'Still there?' },
      }),
    ).toMatchObject(closed('cancelled'));
  });

  it('refuses the provider’s message', async () => {
    expect(
      await stack.asProvider(plumber, `/requests/${request.id}/messages`, {
        method: 'POST',
        body: { message: 'I can still come.' },
      }),
    ).toMatchObject(closed('cancelled'));
  });

  it('refuses a new payment request', async () => {
    expect(
      await stack.asCustomer(agent, request, '/payment-request', {
        method: 'POST',
        body: { amount: 10, description: 'Another deposit' },
      }),
    ).toMatchObject(closed('cancelled'));
  });

  it('refuses to accept the proposal: no job starts', async () => {
    expect(
      await stack.asCustomer(agent, request, `/proposals/${proposalId}/accept`, {
        method: 'POST',
      }),
    ).toMatchObject(closed('cancelled'));
    const jobs = await stack.asCustomer(agent, request, '/jobs');
    expect(jobs).toMatchObject({ status: 200, body: { data: [] } });
  });

  it('refuses a new proposal', async () => {
    expect(
      await stack.asProvider(rival, `/requests/${request.id}/proposals`, { body: PROPOSAL }),
    ).toMatchObject(closed('cancelled'));
  });

  it('refuses staff approval of its earlier payment request; no payment is made', async () => {
    const approved = await stack.asStaff(`/payment-requests/${paymentRequestId}/approve`, {
      method: 'POST',
    });
    // Refused either by the fresh status read (`request_closed`) or, once the cancel was
    // settled, by the machine (the payment request is rejected already); never approved.
    expect(approved.status).toBe(409);
    expect(['request_closed', 'invalid_state_transition']).toContain(approved.body.code);
    const read = await stack.asCustomer(agent, request, '');
    expect(read).toMatchObject({ status: 200, body: { status: 'cancelled', payments: [] } });
  });

  it('declines the open proposal, as the system, with the reason', async () => {
    const proposal = await eventually(async () => {
      const read = await stack.asProvider(plumber, `/proposals/${proposalId}`);
      return read.body.status === 'declined' ? read.body : undefined;
    });
    expect(proposal).toMatchObject({
      status: 'declined',
      decline_reason: 'the request was cancelled',
      decided_at: expect.any(String),
    });
  });

  it('rejects the pending payment request, as the system, with its audit entry', async () => {
    const rejected = await eventually(async () => {
      const list = await stack.asStaff('/payment-requests?status=rejected&limit=100');
      const rows = list.body.data as { id: string }[];
      return rows.find((row) => row.id === paymentRequestId);
    });
    expect(rejected).toMatchObject({
      status: 'rejected',
      rejection_reason: 'the request was cancelled',
    });
    const entry = await eventually(async () => {
      const log = await stack.asStaff('/audit-log?limit=100');
      const rows = log.body.data as { target_id: string; action: string }[];
      return rows.find(
        (row) => row.target_id === paymentRequestId && row.action === 'payment_request.rejected',
      );
    });
    expect(entry).toMatchObject({ actor: 'system' });
  });
});

describe('a request cancelled while in progress', () => {
  it('cancels its active job, as the system; the job’s work moves no more', async () => {
    const { request, jobId } = await stack.engagement(agent, plumber);
    await eventually(async () => {
      const read = await stack.asCustomer(agent, request, '');
      return read.body.status === 'in_progress' ? true : undefined;
    });
    const milestones = await stack.asCustomer(agent, request, `/milestones?job_id=${jobId}`);
    const [first] = milestones.body.data as { id: string }[];
    if (!first) throw new Error('the plan made no milestone');
    await cancel(request.id);
    const job = await eventually(async () => {
      const read = await stack.asCustomer(agent, request, `/jobs/${jobId}`);
      return read.body.status === 'cancelled' ? read.body : undefined;
    });
    expect(job).toMatchObject({ cancel_reason: 'the request was cancelled' });
    expect(
      await stack.asProvider(plumber, `/milestones/${first.id}/submit`, { method: 'POST' }),
    ).toMatchObject({ status: 409, body: { code: 'job_not_active' } });
  });
});

describe('work on a closed job', () => {
  it('refuses the customer’s approval of a milestone once staff cancelled the job', async () => {
    const { request, jobId } = await stack.engagement(agent, plumber);
    const milestones = await stack.asCustomer(agent, request, `/milestones?job_id=${jobId}`);
    const [first] = milestones.body.data as { id: string }[];
    if (!first) throw new Error('the plan made no milestone');
    expect(
      (await stack.asProvider(plumber, `/milestones/${first.id}/submit`, { method: 'POST' }))
        .status,
    ).toBe(200);
    const cancelled = await stack.asStaff(`/jobs/${jobId}/cancel`, {
      method: 'POST',
      body: { reason: 'The customer left.' },
    });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect(
      await stack.asCustomer(agent, request, `/milestones/${first.id}/approve`, {
        method: 'POST',
      }),
    ).toMatchObject({ status: 409, body: { code: 'job_not_active' } });
    expect(
      await stack.asCustomer(agent, request, `/milestones/${first.id}/request-changes`, {
        method: 'POST',
        body: { reason: 'Not what we asked.' },
      }),
    ).toMatchObject({ status: 409, body: { code: 'job_not_active' } });
  });

  it('refuses a dispute on a completed job, and every action on its completed request', async () => {
    const { request, jobId } = await stack.engagement(agent, plumber, {
      ...PROPOSAL,
      milestones: [{ title: 'All of it', amount: 240, due_in_days: 2 }],
    });
    const milestones = await stack.asCustomer(agent, request, `/milestones?job_id=${jobId}`);
    const [only] = milestones.body.data as { id: string }[];
    if (!only) throw new Error('the plan made no milestone');
    expect(
      (await stack.asProvider(plumber, `/milestones/${only.id}/submit`, { method: 'POST' })).status,
    ).toBe(200);
    expect(
      (
        await stack.asCustomer(agent, request, `/milestones/${only.id}/approve`, {
          method: 'POST',
        })
      ).status,
    ).toBe(200);
    expect(
      (await stack.asProvider(plumber, `/jobs/${jobId}/complete`, { method: 'POST' })).status,
    ).toBe(200);
    expect(
      await stack.asCustomer(agent, request, '/disputes', {
        method: 'POST',
        body: { kind: 'dispute', reason: 'The tap leaks again.' },
      }),
    ).toMatchObject({ status: 409, body: { code: 'job_not_active' } });
    // `job.completed` completes the request (intake's engagement consumer); then it is closed.
    await eventually(async () => {
      const read = await stack.asCustomer(agent, request, '');
      return read.body.status === 'completed' ? true : undefined;
    });
    expect(
      await stack.asCustomer(agent, request, '/message', {
        method: 'POST',
        body: { message: 'One more thing.' },
      }),
    ).toMatchObject(closed('completed'));
    expect(
      await stack.asCustomer(agent, request, '/payment-request', {
        method: 'POST',
        body: { amount: 10, description: 'A tip' },
      }),
    ).toMatchObject(closed('completed'));
  });
});
