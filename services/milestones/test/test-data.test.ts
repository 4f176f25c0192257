import { describe, expect, it } from '@jest/globals';
import { deliverableOps, disputeOps, testDataOps } from '@handoff/contracts';
import { useWork } from './support/work.ts';

// `test_data.purge`: intake's bulk deletion of an integration's test data, this service's part:
// every document of the named requests goes, and nothing of any other request.

const work = useWork();

/** A request with the whole engagement: job, milestone, deliverable, dispute with a comment. */
async function engaged(provider_id: string) {
  const { request_id, job } = await work.requestWithJob(provider_id);
  const milestone = await work.newMilestone(job);
  await work.call(deliverableOps.create, {
    milestone_id: milestone.id,
    provider_id,
    input: { title: 'Site', url: 'https://example.com/site' },
  });
  const dispute = await work.call(disputeOps.create, {
    request_id,
    input: { kind: 'dispute', reason: 'Not delivered' },
  });
  await work.call(disputeOps.comment, {
    id: dispute.id,
    party: { role: 'customer', request_id },
    message: 'Any news?',
  });
  return request_id;
}

const stored = async (request_id: string) => {
  const counts: Record<string, number> = {};
  for (const [name, collection] of Object.entries(work.raw)) {
    counts[name] = await collection.countDocuments({ request_id });
  }
  return counts;
};

describe('test_data.purge', () => {
  it("deletes the named requests' engagement and nothing else", async () => {
    const gone = await engaged('prv_purged');
    const kept = await engaged('prv_kept');
    const whole = { proposals: 1, jobs: 1, milestones: 1, deliverables: 1, disputes: 1 };
    expect(await stored(gone)).toEqual(whole);

    const purged = await work.call(testDataOps.milestones, { request_ids: [gone, 'req_unknown'] });
    expect(purged).toEqual(whole);
    expect(await stored(gone)).toEqual({
      proposals: 0,
      jobs: 0,
      milestones: 0,
      deliverables: 0,
      disputes: 0,
    });
    expect(await stored(kept)).toEqual(whole);

    // Asked again (a deletion cut short is finished this way): nothing more to delete.
    expect(await work.call(testDataOps.milestones, { request_ids: [gone] })).toEqual({
      proposals: 0,
      jobs: 0,
      milestones: 0,
      deliverables: 0,
      disputes: 0,
    });
  });

  it('refuses more request ids than a page holds', async () => {
    const request_ids = Array.from({ length: 501 }, (_, i) => `req_${i}`);
    await expect(work.call(testDataOps.milestones, { request_ids })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});
