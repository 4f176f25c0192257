import { beforeAll, describe, expect, it } from '@jest/globals';
import { address, http, type Onboarded } from './support/http.ts';
import { PROPOSAL, useStack, type OwnedRequest, type ProviderAccount } from './support/stack.ts';

const stack = useStack('gw_engagement');
let agent: Onboarded;
let other: Onboarded;
let narrow: Onboarded;
let plumber: ProviderAccount;
let rival: ProviderAccount;

beforeAll(async () => {
  [agent, other, narrow] = await Promise.all([
    stack.agentOf(),
    stack.agentOf(),
    stack.agentOf(['requests:create', 'requests:read']),
  ]);
  [plumber, rival] = await Promise.all([stack.providerOf(), stack.providerOf()]);
});

type Row = Record<string, unknown> & { id: string; status: string };
const ids = (body: Record<string, unknown>) => (body.data as Row[]).map((row) => row.id);

describe('the customer’s side of a request, through the agent', () => {
  let request: OwnedRequest;
  let chosen: string;
  let declined: string;

  beforeAll(async () => {
    request = await stack.routedRequest(agent, [plumber, rival]);
    chosen = await stack.propose(plumber, request.id);
    declined = await stack.propose(rival, request.id, {
      message: 'Cheaper, next week.',
      amount: 180,
    });
  });

  it('needs the key, its scope and the request token, checked in that order', async () => {
    const path = `/v1/request/${request.id}/proposals`;
    expect(await http(stack.gateway, path, { from: address() })).toMatchObject({
      status: 401,
      body: { code: 'api_key_missing' },
    });
    expect(
      await http(stack.gateway, path, {
        token: narrow.key,
        headers: { 'X-Service-Request-Token': request.token },
      }),
    ).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope', required_scopes: ['proposals:read'] },
    });
    expect(await http(stack.gateway, path, { token: agent.key })).toMatchObject({
      status: 401,
      body: { code: 'request_token_missing' },
    });
    expect(
      await http(stack.gateway, path, {
        token: agent.key,
        headers: { 'X-Service-Request-Token': 'hrt_wrong' },
      }),
    ).toMatchObject({ status: 403, body: { code: 'request_token_invalid' } });
    // Another integration's request is unknown to this agent, even with the right token.
    expect(
      await http(stack.gateway, path, {
        token: other.key,
        headers: { 'X-Service-Request-Token': request.token },
      }),
    ).toMatchObject({ status: 404, body: { code: 'request_not_found' } });
    expect(
      await http(stack.gateway, `/v1/request/req_unknown/proposals/${chosen}`, {
        token: agent.key,
        headers: { 'X-Service-Request-Token': request.token },
      }),
    ).toMatchObject({ status: 404, body: { code: 'request_not_found' } });
  });

  it('lists the proposals, newest first, and filters them by status', async () => {
    const list = await stack.asCustomer(agent, request, '/proposals');
    expect(list).toMatchObject({ status: 200, body: { object: 'list', has_more: false } });
    expect(ids(list.body)).toEqual([declined, chosen]);
    const paged = await stack.asCustomer(agent, request, '/proposals?limit=1');
    expect(paged.body).toMatchObject({ has_more: true });
    expect(ids(paged.body)).toEqual([declined]);
    const next = await stack.asCustomer(
      agent,
      request,
      `/proposals?limit=1&starting_after=${declined}`,
    );
    expect(ids(next.body)).toEqual([chosen]);
    expect(
      ids((await stack.asCustomer(agent, request, '/proposals?status=accepted')).body),
    ).toEqual([]);
    expect(await stack.asCustomer(agent, request, '/proposals?status=maybe')).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/query/status' }] },
    });
    expect(await stack.asCustomer(agent, request, '/proposals?limit=0')).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/query/limit' }] },
    });
  });

  it('reads one proposal; another request’s proposal is not found', async () => {
    expect(await stack.asCustomer(agent, request, `/proposals/${chosen}`)).toMatchObject({
      status: 200,
      body: { id: chosen, provider_id: plumber.id, status: 'submitted' },
    });
    const elsewhere = await stack.requestOf(agent);
    expect(await stack.asCustomer(agent, elsewhere, `/proposals/${chosen}`)).toMatchObject({
      status: 404,
      body: { code: 'proposal_not_found' },
    });
    expect(await stack.asCustomer(agent, request, '/proposals/prp_unknown')).toMatchObject({
      status: 404,
      body: { code: 'proposal_not_found' },
    });
    expect(
      await stack.asCustomer(agent, elsewhere, `/proposals/${chosen}/accept`, { method: 'POST' }),
    ).toMatchObject({ status: 404, body: { code: 'proposal_not_found' } });
  });

  it('declines with a reason; a decided proposal cannot be declined again', async () => {
    const answer = await stack.asCustomer(agent, request, `/proposals/${declined}/decline`, {
      body: { reason: 'Too late for us.' },
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { id: declined, status: 'declined', decline_reason: 'Too late for us.' },
    });
    const again = await stack.asCustomer(agent, request, `/proposals/${declined}/decline`, {
      method: 'POST',
    });
    expect(again).toMatchObject({
      status: 409,
      body: {
        code: 'invalid_state_transition',
        resource: 'proposal',
        current_state: 'declined',
        action: 'decline',
        allowed_actions: [],
      },
    });
    expect(
      await stack.asCustomer(agent, request, `/proposals/${declined}/decline`, {
        body: { reason: 'x', extra: true },
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/extra' }] } });
  });

  it('accepts one: the job starts with its plan, and the request is no longer open', async () => {
    const scoped = await stack.asCustomer(narrow, request, `/proposals/${chosen}/accept`, {
      method: 'POST',
    });
    expect(scoped).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope', required_scopes: ['proposals:accept'] },
    });
    const accepted = await stack.asCustomer(agent, request, `/proposals/${chosen}/accept`, {
      method: 'POST',
    });
    expect(accepted).toMatchObject({
      status: 200,
      body: {
        proposal: { id: chosen, status: 'accepted', job_id: expect.stringMatching(/^job_/) },
        job: {
          object: 'job',
          id: expect.stringMatching(/^job_/),
          request_id: request.id,
          proposal_id: chosen,
          provider_id: plumber.id,
          amount: 240,
          currency: 'USD',
          status: 'active',
        },
      },
    });
    const jobId = (accepted.body.job as Row).id;
    const jobs = await stack.asCustomer(agent, request, '/jobs');
    expect(ids(jobs.body)).toEqual([jobId]);
    expect(await stack.asCustomer(agent, request, `/jobs/${jobId}`)).toMatchObject({
      status: 200,
      body: { id: jobId, status: 'active' },
    });
    expect(await stack.asCustomer(agent, request, '/jobs/job_unknown')).toMatchObject({
      status: 404,
      body: { code: 'job_not_found' },
    });
    const milestones = await stack.asCustomer(agent, request, `/milestones?job_id=${jobId}`);
    expect(milestones.status).toBe(200);
    expect((milestones.body.data as Row[]).map((m) => m.title).sort()).toEqual([
      'Diagnose the leak',
      'Replace the cartridge',
    ]);
    // The other proposal can no longer be accepted.
    const late = await stack.asCustomer(agent, request, `/proposals/${chosen}/accept`, {
      method: 'POST',
    });
    expect(late).toMatchObject({ status: 409, body: { code: 'invalid_state_transition' } });
    // Another provider cannot propose any more: a job started.
    expect(
      await stack.asProvider(rival, `/requests/${request.id}/proposals`, { body: PROPOSAL }),
    ).toMatchObject({ status: 409, body: { code: 'request_not_open' } });
  });
});

describe('the work of a job: milestones and deliverables', () => {
  let request: OwnedRequest;
  let jobId: string;

  beforeAll(async () => {
    ({ request, jobId } = await stack.engagement(agent, plumber, {
      message: 'One milestone at a time.',
      amount: 500,
    }));
  });

  it('goes through submission, a change request, resubmission and approval', async () => {
    // The provider plans a milestone on its job.
    const created = await stack.asProvider(plumber, `/jobs/${jobId}/milestones`, {
      body: { title: 'Fit the new tap', amount: 120.5, description: 'Chrome, single lever.' },
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        object: 'milestone',
        id: expect.stringMatching(/^mst_/),
        request_id: request.id,
        job_id: jobId,
        status: 'open',
        amount: 120.5,
        revision: 0,
      },
    });
    const id = String(created.body.id);
    expect(
      await stack.asProvider(rival, `/jobs/${jobId}/milestones`, { body: { title: 'Mine' } }),
    ).toMatchObject({ status: 404, body: { code: 'job_not_found' } });

    const progress = await stack.asProvider(plumber, `/milestones/${id}/progress`, {
      body: { progress: 50, note: 'Old tap removed.' },
    });
    expect(progress).toMatchObject({
      status: 200,
      body: { progress: 50, progress_note: 'Old tap removed.' },
    });
    expect(
      await stack.asProvider(plumber, `/milestones/${id}/progress`, { body: { progress: 101 } }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/progress' }] } });

    const first = await stack.asProvider(plumber, `/milestones/${id}/deliverables`, {
      body: { title: 'Photo of the fitted tap', url: 'https://files.example.com/tap.jpg' },
    });
    expect(first).toMatchObject({
      status: 201,
      body: {
        object: 'deliverable',
        id: expect.stringMatching(/^dlv_/),
        milestone_id: id,
        status: 'submitted',
      },
    });
    expect(
      await stack.asProvider(plumber, `/milestones/${id}/deliverables`, {
        body: { title: 'x', url: 'ftp://nope' },
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/url' }] } });

    // Reviewing an open milestone is not a legal move.
    const early = await stack.asCustomer(agent, request, `/milestones/${id}/approve`, {
      method: 'POST',
    });
    expect(early).toMatchObject({
      status: 409,
      body: {
        code: 'invalid_state_transition',
        current_state: 'open',
        action: 'approve',
        // Only the agent's own moves: the provider's submit and progress are not offered.
        allowed_actions: [],
      },
    });
    expect(
      await stack.asCustomer(agent, request, `/milestones/${id}/request-changes`, {
        body: { reason: 'Too early.' },
      }),
    ).toMatchObject({
      status: 409,
      body: {
        detail:
          'cannot request changes on a milestone that is open; no move of yours is allowed in that state.',
        allowed_actions: [],
      },
    });

    const submitted = await stack.asProvider(plumber, `/milestones/${id}/submit`, {
      method: 'POST',
    });
    expect(submitted).toMatchObject({
      status: 200,
      body: { status: 'submitted', revision: 1, deadline_at: expect.any(String) },
    });

    expect(
      await stack.asCustomer(agent, request, `/milestones/${id}/request-changes`, {
        body: {},
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/reason' }] } });
    expect(
      await stack.asCustomer(narrow, request, `/milestones/${id}/approve`, { method: 'POST' }),
    ).toMatchObject({ status: 403, body: { required_scopes: ['milestones:review'] } });
    const changes = await stack.asCustomer(agent, request, `/milestones/${id}/request-changes`, {
      body: { reason: 'The tap drips.' },
    });
    expect(changes).toMatchObject({
      status: 200,
      body: { status: 'changes_requested', change_request_reason: 'The tap drips.' },
    });
    expect(
      await stack.asCustomer(agent, request, `/deliverables/${String(first.body.id)}`),
    ).toMatchObject({ status: 200, body: { status: 'revision_requested' } });

    const second = await stack.asProvider(plumber, `/milestones/${id}/deliverables`, {
      body: { title: 'Photo, no drip', url: 'https://files.example.com/tap-2.jpg' },
    });
    expect(second.status).toBe(201);
    const resubmitted = await stack.asProvider(plumber, `/milestones/${id}/submit`, {
      body: { note: 'Washer replaced.' },
    });
    expect(resubmitted).toMatchObject({
      status: 200,
      body: { status: 'submitted', revision: 2, submission_note: 'Washer replaced.' },
    });
    const approved = await stack.asCustomer(agent, request, `/milestones/${id}/approve`, {
      method: 'POST',
    });
    expect(approved).toMatchObject({
      status: 200,
      body: { status: 'approved', approved_by: 'customer', deadline_at: null },
    });
    expect(
      await stack.asCustomer(agent, request, `/deliverables/${String(second.body.id)}`),
    ).toMatchObject({ status: 200, body: { status: 'accepted' } });

    // Reads on both sides.
    expect(await stack.asCustomer(agent, request, `/milestones/${id}`)).toMatchObject({
      status: 200,
      body: { id, status: 'approved' },
    });
    expect(await stack.asProvider(plumber, `/milestones/${id}`)).toMatchObject({
      status: 200,
      body: { id },
    });
    expect(await stack.asProvider(rival, `/milestones/${id}`)).toMatchObject({
      status: 404,
      body: { code: 'milestone_not_found' },
    });
    const deliverables = await stack.asCustomer(agent, request, `/deliverables?milestone_id=${id}`);
    expect(ids(deliverables.body)).toEqual([String(second.body.id), String(first.body.id)]);
    const providerDeliverables = await stack.asProvider(
      plumber,
      `/deliverables?milestone_id=${id}&status=accepted`,
    );
    expect(ids(providerDeliverables.body)).toEqual([String(second.body.id)]);
  });

  it('lets the provider withdraw a deliverable, once', async () => {
    const milestone = await stack.asProvider(plumber, `/jobs/${jobId}/milestones`, {
      body: { title: 'Tidy up' },
    });
    const id = String(milestone.body.id);
    const deliverable = await stack.asProvider(plumber, `/milestones/${id}/deliverables`, {
      body: { title: 'Receipt', url: 'https://files.example.com/receipt.pdf' },
    });
    const path = `/deliverables/${String(deliverable.body.id)}`;
    expect(await stack.asProvider(plumber, `${path}/withdraw`, { method: 'POST' })).toMatchObject({
      status: 200,
      body: { status: 'withdrawn' },
    });
    expect(await stack.asProvider(plumber, `${path}/withdraw`, { method: 'POST' })).toMatchObject({
      status: 409,
      body: { code: 'invalid_state_transition', current_state: 'withdrawn' },
    });
    expect(await stack.asProvider(plumber, path)).toMatchObject({
      status: 200,
      body: { id: deliverable.body.id, status: 'withdrawn' },
    });
    expect(await stack.asProvider(rival, path)).toMatchObject({
      status: 404,
      body: { code: 'deliverable_not_found' },
    });
    expect(await stack.asCustomer(agent, request, '/deliverables/dlv_unknown')).toMatchObject({
      status: 404,
      body: { code: 'deliverable_not_found' },
    });
    expect(await stack.asCustomer(agent, request, '/milestones/mst_unknown')).toMatchObject({
      status: 404,
      body: { code: 'milestone_not_found' },
    });
    // Staff cancel it so that the job can complete.
    expect(
      await stack.asStaff(`/milestones/${id}/cancel`, { body: { reason: 'Not needed.' } }),
    ).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect(
      await stack.asStaff(`/milestones/${id}/cancel`, { body: { reason: 'Again.' } }),
    ).toMatchObject({ status: 409, body: { code: 'invalid_state_transition' } });
    expect(
      await stack.asStaff('/milestones/mst_unknown/cancel', { body: { reason: 'x' } }),
    ).toMatchObject({ status: 404, body: { code: 'milestone_not_found' } });
  });
});

describe('disputes, and completing the job', () => {
  let request: OwnedRequest;
  let jobId: string;

  beforeAll(async () => {
    ({ request, jobId } = await stack.engagement(agent, plumber, {
      message: 'Single step.',
      amount: 90,
      milestones: [{ title: 'Fix it' }],
    }));
  });

  it('cannot be opened on a request without a job', async () => {
    const idle = await stack.requestOf(agent);
    expect(
      await stack.asCustomer(agent, idle, '/disputes', {
        body: { kind: 'dispute', reason: 'Nobody came.' },
      }),
    ).toMatchObject({ status: 409, body: { code: 'no_job' } });
  });

  it('are opened, commented on by everyone, escalated and resolved; then nothing more', async () => {
    expect(
      await stack.asCustomer(agent, request, '/disputes', {
        body: { kind: 'refund', reason: 'x', amount: 10.555 },
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/amount' }] } });
    expect(
      await stack.asCustomer(narrow, request, '/disputes', {
        body: { kind: 'dispute', reason: 'x' },
      }),
    ).toMatchObject({ status: 403, body: { required_scopes: ['disputes:manage'] } });
    const opened = await stack.asCustomer(agent, request, '/disputes', {
      body: { kind: 'refund', reason: 'The tap still leaks.', amount: 40, currency: 'USD' },
    });
    expect(opened).toMatchObject({
      status: 201,
      body: {
        object: 'dispute',
        id: expect.stringMatching(/^dsp_/),
        request_id: request.id,
        job_id: jobId,
        provider_id: plumber.id,
        kind: 'refund',
        status: 'open',
        amount: 40,
        comments: [],
        resolution: null,
      },
    });
    const id = String(opened.body.id);

    const byCustomer = await stack.asCustomer(agent, request, `/disputes/${id}/comments`, {
      body: { message: 'Photos attached in the conversation.' },
    });
    expect(byCustomer).toMatchObject({
      status: 200,
      body: { comments: [expect.objectContaining({ author_role: 'customer' })] },
    });
    const byProvider = await stack.asProvider(plumber, `/disputes/${id}/comments`, {
      body: { message: 'I will come back tomorrow.' },
    });
    expect(byProvider.status).toBe(200);
    expect(await stack.asProvider(plumber, `/disputes/${id}`)).toMatchObject({
      status: 200,
      body: { id, comments: [{ author_role: 'customer' }, { author_role: 'provider' }] },
    });
    expect(await stack.asProvider(rival, `/disputes/${id}`)).toMatchObject({
      status: 404,
      body: { code: 'dispute_not_found' },
    });
    expect(ids((await stack.asProvider(plumber, '/disputes?status=open')).body)).toContain(id);

    // Open work blocks completing the job.
    expect(
      await stack.asProvider(plumber, `/jobs/${jobId}/complete`, { method: 'POST' }),
    ).toMatchObject({ status: 409, body: { code: 'job_has_open_work' } });

    // Staff.
    const listed = await stack.asStaff('/disputes?status=open&limit=100');
    expect(ids(listed.body)).toContain(id);
    expect(await stack.asStaff(`/disputes/${id}`)).toMatchObject({ status: 200, body: { id } });
    expect(
      await stack.asStaff(`/disputes/${id}/comments`, { body: { message: 'Looking into it.' } }),
    ).toMatchObject({ status: 200 });
    expect(await stack.asStaff(`/disputes/${id}/escalate`, { method: 'POST' })).toMatchObject({
      status: 200,
      body: { status: 'under_review' },
    });
    expect(await stack.asStaff(`/disputes/${id}/escalate`, { method: 'POST' })).toMatchObject({
      status: 409,
      body: { code: 'invalid_state_transition', current_state: 'under_review' },
    });
    expect(
      await stack.asStaff(`/disputes/${id}/resolve`, {
        body: { outcome: 'split', reason: 'Half the work was fine.' },
      }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/customer_share_percent' }] } });
    const resolved = await stack.asStaff(`/disputes/${id}/resolve`, {
      body: { outcome: 'split', reason: 'Half the work was fine.', customer_share_percent: 50 },
    });
    expect(resolved).toMatchObject({
      status: 200,
      body: {
        status: 'resolved',
        resolution: { outcome: 'split', customer_share_percent: 50 },
        comments: [
          expect.objectContaining({ author_role: 'customer' }),
          expect.objectContaining({ author_role: 'provider' }),
          expect.objectContaining({ author_role: 'staff' }),
        ],
      },
    });
    const withdraw = await stack.asCustomer(agent, request, `/disputes/${id}/withdraw`, {
      method: 'POST',
    });
    expect(withdraw).toMatchObject({
      status: 409,
      body: { code: 'invalid_state_transition', current_state: 'resolved', allowed_actions: [] },
    });
    expect(await stack.asCustomer(agent, request, `/disputes/${id}`)).toMatchObject({
      status: 200,
      body: { status: 'resolved' },
    });
    expect(ids((await stack.asCustomer(agent, request, '/disputes')).body)).toEqual([id]);
    expect(await stack.asCustomer(agent, request, '/disputes/dsp_unknown')).toMatchObject({
      status: 404,
      body: { code: 'dispute_not_found' },
    });
    expect(await stack.asStaff('/disputes/dsp_unknown/escalate', { method: 'POST' })).toMatchObject(
      { status: 404, body: { code: 'dispute_not_found' } },
    );
  });

  it('can be withdrawn by the customer', async () => {
    const opened = await stack.asCustomer(agent, request, '/disputes', {
      body: { kind: 'dispute', reason: 'Wrong colour.' },
    });
    const id = String(opened.body.id);
    expect(
      await stack.asCustomer(agent, request, `/disputes/${id}/withdraw`, { method: 'POST' }),
    ).toMatchObject({ status: 200, body: { status: 'withdrawn' } });
  });

  it('completes the job once every milestone is approved and no case is open', async () => {
    const planned = await stack.asProvider(plumber, `/milestones?job_id=${jobId}`);
    const [milestone] = planned.body.data as Row[];
    if (!milestone) throw new Error('the plan made no milestone');
    await stack.asProvider(plumber, `/milestones/${milestone.id}/submit`, { method: 'POST' });
    await stack.asCustomer(agent, request, `/milestones/${milestone.id}/approve`, {
      method: 'POST',
    });
    expect(
      await stack.asProvider(rival, `/jobs/${jobId}/complete`, { method: 'POST' }),
    ).toMatchObject({ status: 404, body: { code: 'job_not_found' } });
    const done = await stack.asProvider(plumber, `/jobs/${jobId}/complete`, { method: 'POST' });
    expect(done).toMatchObject({
      status: 200,
      body: { id: jobId, status: 'completed', completed_at: expect.any(String) },
    });
    expect(
      await stack.asProvider(plumber, `/jobs/${jobId}/complete`, { method: 'POST' }),
    ).toMatchObject({ status: 409, body: { code: 'invalid_state_transition' } });
    expect(ids((await stack.asProvider(plumber, '/jobs?status=completed')).body)).toContain(jobId);
    expect(await stack.asProvider(plumber, `/jobs/${jobId}`)).toMatchObject({
      status: 200,
      body: { status: 'completed' },
    });
    expect(
      await stack.asStaff(`/jobs/${jobId}/cancel`, { body: { reason: 'Late.' } }),
    ).toMatchObject({ status: 409, body: { code: 'invalid_state_transition' } });
  });

  it('lets staff cancel an active job with a reason', async () => {
    const { jobId: active } = await stack.engagement(agent, plumber, {
      message: 'Another.',
      amount: 20,
    });
    expect(await stack.asStaff(`/jobs/${active}/cancel`, { body: {} })).toMatchObject({
      status: 422,
    });
    expect(
      await stack.asStaff(`/jobs/${active}/cancel`, { body: { reason: 'Customer moved.' } }),
    ).toMatchObject({
      status: 200,
      body: { status: 'cancelled', cancel_reason: 'Customer moved.' },
    });
    expect(
      await stack.asStaff('/jobs/job_unknown/cancel', { body: { reason: 'x' } }),
    ).toMatchObject({ status: 404, body: { code: 'job_not_found' } });
  });
});
