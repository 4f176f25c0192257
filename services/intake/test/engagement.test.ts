import { describe, expect, it } from '@jest/globals';
import { EVENTS_STREAM, newId, requestOps } from '@handoff/contracts';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { ENGAGEMENT_CONSUMER, ENGAGEMENT_SUBJECTS } from '../src/handlers/engagement.consumer.ts';
import {
  createProvider,
  createRequest,
  engagementEvent,
  publishAndSettle,
  requestEvents,
  settled,
  updateRequest,
  useIntake,
} from './support/stack.ts';

const intake = useIntake('engagement');

const read = (id: string) => intake.call(requestOps.getAsStaff, { id });
/** Publishes an engagement event of the request and the provider, and waits until it is handled. */
const settle = (
  type: Parameters<typeof engagementEvent>[0],
  requestId: string,
  providerId: string,
) => publishAndSettle(intake.nc, engagementEvent(type, requestId, providerId));
const raw = (id: string) =>
  intake.service.store.db.collection('requests').findOne({ _id: id } as never) as Promise<{
    engaged_provider_id?: string | null;
    status: string;
  } | null>;
const summary = async (id: string) =>
  (await requestEvents(intake.nc, id)).map((e) => [
    e.type,
    e.data.sequence,
    (e.data.object as { status: string }).status,
  ]);

/**
 * A request staff routed by hand to a provider that automatic routing offers nothing (capacity
 * 0), so that the request's events are the staff change's and the engagement's alone.
 */
async function routedRequest() {
  const provider = await createProvider(intake.nc, { categories: ['plumbing'], capacity: 0 });
  const request = await createRequest(intake.nc, { category: 'plumbing' });
  await updateRequest(intake.nc, request.id, {
    status: 'routed',
    routing: { mode: 'direct', provider_ids: [provider.id] },
  });
  return { provider, request };
}

describe('the engagement consumer', () => {
  it('is a durable consumer of the two engagement events, acknowledged one by one', async () => {
    const jsm = await jetstreamManager(intake.nc);
    const info = await jsm.consumers.info(EVENTS_STREAM.name, ENGAGEMENT_CONSUMER);
    expect(info.config).toMatchObject({
      durable_name: ENGAGEMENT_CONSUMER,
      ack_policy: AckPolicy.Explicit,
      filter_subjects: ENGAGEMENT_SUBJECTS,
      max_deliver: 8,
    });
    expect(info.config.backoff?.length).toBeGreaterThan(0);
  });

  it('starts the work on proposal.accepted and completes it on job.completed, once each', async () => {
    const { provider, request } = await routedRequest();
    const accepted = engagementEvent('proposal.accepted', request.id, provider.id);
    await publishAndSettle(intake.nc, accepted);
    expect(await read(request.id)).toMatchObject({ status: 'in_progress' });
    expect(await raw(request.id)).toMatchObject({ engaged_provider_id: provider.id });
    expect(await summary(request.id)).toEqual([
      ['request.created', 1, 'submitted'],
      ['request.updated', 2, 'routed'],
      ['request.updated', 3, 'in_progress'],
    ]);
    const inProgress = await read(request.id);

    // The same event delivered again (a new JetStream message, same event) changes nothing.
    await publishAndSettle(intake.nc, accepted, newId('evt'));
    expect(await read(request.id)).toEqual(inProgress);

    const completed = engagementEvent('job.completed', request.id, provider.id);
    await publishAndSettle(intake.nc, completed);
    expect(await read(request.id)).toMatchObject({ status: 'completed' });
    await publishAndSettle(intake.nc, completed, newId('evt'));
    await publishAndSettle(intake.nc, accepted, newId('evt'));
    expect(await summary(request.id)).toEqual([
      ['request.created', 1, 'submitted'],
      ['request.updated', 2, 'routed'],
      ['request.updated', 3, 'in_progress'],
      ['request.updated', 4, 'completed'],
    ]);

    // The moves are the system's, in the audit log like staff changes.
    await intake.service.outbox.sweep();
    const audit = await intake.service.store.db
      .collection('intake_audit_log')
      .find({ target_id: request.id, actor: 'system' } as never)
      .sort({ at: 1 })
      .toArray();
    expect(audit.map((e) => e.action)).toEqual(['request.work_started', 'request.work_completed']);
  });

  it('moves a marketplace request straight from submitted to in progress', async () => {
    const provider = await createProvider(intake.nc, { categories: ['plumbing'], capacity: 0 });
    const request = await createRequest(intake.nc, {
      category: 'plumbing',
      marketplace_opt_in: true,
    });
    await settle('proposal.accepted', request.id, provider.id);
    expect(await read(request.id)).toMatchObject({ status: 'in_progress' });
  });

  it('catches up when job.completed is handled before the acceptance', async () => {
    const { provider, request } = await routedRequest();
    await settle('job.completed', request.id, provider.id);
    await settle('proposal.accepted', request.id, provider.id);
    expect(await raw(request.id)).toMatchObject({
      status: 'completed',
      engaged_provider_id: provider.id,
    });
    expect((await summary(request.id)).slice(2)).toEqual([
      ['request.updated', 3, 'in_progress'],
      ['request.updated', 4, 'completed'],
    ]);
  });

  it('acknowledges without change an event for a request that cannot move', async () => {
    const { provider, request } = await routedRequest();
    await updateRequest(intake.nc, request.id, { status: 'cancelled' });
    const before = await read(request.id);
    await settle('proposal.accepted', request.id, provider.id);
    await settle('job.completed', request.id, provider.id);
    expect(await read(request.id)).toEqual(before);
    expect(await raw(request.id)).toMatchObject({ engaged_provider_id: null });
    expect(await summary(request.id)).toHaveLength(3);

    // Staff put a request in progress by hand before the acceptance: the provider is recorded,
    // with no event, since the request as agents see it does not change.
    const manual = await routedRequest();
    await updateRequest(intake.nc, manual.request.id, { status: 'in_progress' });
    await settle('proposal.accepted', manual.request.id, manual.provider.id);
    expect(await raw(manual.request.id)).toMatchObject({
      status: 'in_progress',
      engaged_provider_id: manual.provider.id,
    });
    expect(await summary(manual.request.id)).toHaveLength(3);
    // Another provider's acceptance does not take the engagement over.
    const rival = await createProvider(intake.nc, { categories: ['plumbing'], capacity: 0 });
    await settle('job.completed', manual.request.id, rival.id);
    expect(await raw(manual.request.id)).toMatchObject({
      status: 'in_progress',
      engaged_provider_id: manual.provider.id,
    });
  });

  it('terminates poison and unknown requests, and goes on with the next event', async () => {
    const js = jetstream(intake.nc);
    await js.publish('handoff.events.proposal.accepted', 'not json');
    await js.publish(
      'handoff.events.job.completed',
      JSON.stringify({ id: 'evt_bad', type: 'job.completed' }),
    );
    const unknown = engagementEvent('proposal.accepted', 'req_unknown', 'prv_someone');
    await js.publish('handoff.events.proposal.accepted', JSON.stringify(unknown));
    const { provider, request } = await routedRequest();
    await settle('proposal.accepted', request.id, provider.id);
    expect(await read(request.id)).toMatchObject({ status: 'in_progress' });
  });

  it('applies events that arrived while intake was stopped, once it is back', async () => {
    const { provider, request } = await routedRequest();
    await intake.stopService();
    const ack = await jetstream(intake.nc).publish(
      'handoff.events.proposal.accepted',
      JSON.stringify(engagementEvent('proposal.accepted', request.id, provider.id)),
    );
    await intake.startService();
    await settled(intake.nc, ack.seq);
    expect(await read(request.id)).toMatchObject({ status: 'in_progress' });
  });
});
