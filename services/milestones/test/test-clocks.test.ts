// A test clock's operations on milestones: the soonest deadline ahead of some requests, their
// deadlines moved earlier, and what fell due fired as the sweep does, for those requests only.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { deliverableOps, disputeOps, milestoneOps, milestonesClockOps } from '@handoff/contracts';
import { DAY, useWork } from './support/work.ts';

const provider_id = 'prv_clocks';
const HOUR = 60 * 60 * 1000;

const work = useWork();

/** A request with a job, a submitted milestone (its deliverable too) and an open case. */
async function engaged() {
  const { request_id, job } = await work.requestWithJob(provider_id);
  const milestone = await work.newMilestone(job, { title: 'All of it' });
  const deliverable = await work.call(deliverableOps.create, {
    milestone_id: milestone.id,
    provider_id,
    input: { title: 'Files', url: 'https://example.com/files' },
  });
  await work.call(milestoneOps.submit, { id: milestone.id, provider_id });
  const dispute = await work.call(disputeOps.create, {
    request_id,
    input: { kind: 'dispute', reason: 'Slow' },
  });
  return {
    request_id,
    job,
    milestone: milestone.id,
    deliverable: deliverable.id,
    dispute: dispute.id,
  };
}

let onClock: Awaited<ReturnType<typeof engaged>>;
let offClock: Awaited<ReturnType<typeof engaged>>;
const scope = () => ({ request_ids: [onClock.request_id] });

const deadlineOf = async (collection: 'milestones' | 'disputes' | 'jobs', id: string) =>
  (await work.raw[collection].findOne({ _id: id }))?.deadline_at?.getTime();

beforeAll(async () => {
  onClock = await engaged();
  offClock = await engaged();
});

describe('test clocks on milestones', () => {
  it('names the soonest deadline ahead that does something: the open case (7 days)', async () => {
    const { next } = await work.call(milestonesClockOps.next, scope());
    expect(next).toMatchObject({ resource: 'dispute', id: onClock.dispute });
    expect(next?.in_ms).toBeGreaterThan(7 * DAY - HOUR);
    expect(next?.in_ms).toBeLessThanOrEqual(7 * DAY);
  });

  it('moves every waiting deadline of the requests earlier, and no other request’s', async () => {
    const before = {
      job: await deadlineOf('jobs', onClock.job.id),
      milestone: await deadlineOf('milestones', onClock.milestone),
      other: await deadlineOf('milestones', offClock.milestone),
    };
    const { shifted } = await work.call(milestonesClockOps.shift, {
      ...scope(),
      by_ms: 6 * DAY,
    });
    // The job (active), the milestone and its deliverable (submitted), the case (open).
    expect(shifted).toBe(4);
    expect(await deadlineOf('jobs', onClock.job.id)).toBe((before.job ?? 0) - 6 * DAY);
    expect(await deadlineOf('milestones', onClock.milestone)).toBe(
      (before.milestone ?? 0) - 6 * DAY,
    );
    expect(await deadlineOf('milestones', offClock.milestone)).toBe(before.other);
    const { next } = await work.call(milestonesClockOps.next, scope());
    expect(next?.in_ms).toBeLessThanOrEqual(DAY);
  });

  it('fires only what fell due, of the requests named', async () => {
    // The other request's case is overdue too: only its own sweep takes it.
    await work.raw.disputes.updateOne(
      { _id: offClock.dispute },
      { $set: { deadline_at: new Date(Date.now() - HOUR) } },
    );
    expect(await work.call(milestonesClockOps.fire, scope())).toEqual({ fired: 0 });

    await work.call(milestonesClockOps.shift, { ...scope(), by_ms: DAY });
    expect(await work.call(milestonesClockOps.fire, scope())).toEqual({ fired: 1 });
    expect((await work.raw.disputes.findOne({ _id: onClock.dispute }))?.status).toBe(
      'under_review',
    );
    expect((await work.raw.disputes.findOne({ _id: offClock.dispute }))?.status).toBe('open');
    const events = await work.awaitEventsAbout(onClock.dispute, 2);
    expect(events.at(-1)).toMatchObject({ type: 'dispute.updated' });
  });

  it('approves a submitted milestone by deadline when its review time has passed', async () => {
    const { next } = await work.call(milestonesClockOps.next, scope());
    expect(next).toMatchObject({ resource: 'milestone', id: onClock.milestone });
    await work.call(milestonesClockOps.shift, { ...scope(), by_ms: next?.in_ms ?? 0 });
    expect(await work.call(milestonesClockOps.fire, scope())).toEqual({ fired: 1 });

    expect(await work.raw.milestones.findOne({ _id: onClock.milestone })).toMatchObject({
      status: 'approved',
      approved_by: 'deadline',
    });
    expect((await work.raw.deliverables.findOne({ _id: onClock.deliverable }))?.status).toBe(
      'accepted',
    );
    expect((await work.raw.milestones.findOne({ _id: offClock.milestone }))?.status).toBe(
      'submitted',
    );
    const events = await work.awaitEventsAbout(onClock.milestone, 3);
    expect(events.at(-1)).toMatchObject({
      type: 'milestone.approved',
      data: { object: { approved_by: 'deadline' } },
    });
  });
});
