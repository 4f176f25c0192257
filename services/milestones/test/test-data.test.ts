import { describe, expect, it } from '@jest/globals';
import { callBytes } from '@handoff/bus';
import { deliverableFileOps, deliverableOps, disputeOps, testDataOps } from '@handoff/contracts';
import { createHash } from 'node:crypto';
import { useWork } from './support/work.ts';

// `test_data.purge`: intake's bulk deletion of an integration's test data, this service's part:
// every document of the named requests goes, and nothing of any other request.

const work = useWork();

/** A request with the whole engagement: job, milestone, deliverable, dispute with a comment. */
async function engaged(provider_id: string) {
  const { request_id, job } = await work.requestWithJob(provider_id);
  const milestone = await work.newMilestone(job);
  // A file of the deliverable, uploaded as the gateway does: claimed, one chunk, committed.
  const upload = await work.call(deliverableFileOps.begin, {
    milestone_id: milestone.id,
    provider_id,
    filename: 'site.txt',
    declared_type: 'text/plain',
  });
  const bytes = Buffer.from('the site\n');
  await callBytes(work.nc, deliverableFileOps.chunk, { file_id: upload.file_id, n: 0 }, bytes, {
    timeoutMs: 5_000,
  });
  await work.call(deliverableFileOps.commit, {
    file_id: upload.file_id,
    size: bytes.length,
    chunks: 1,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    content_type: 'text/plain',
  });
  await work.call(deliverableOps.create, {
    milestone_id: milestone.id,
    provider_id,
    input: { title: 'Site', url: 'https://example.com/site', files: [upload.file_id] },
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
  const files = work.service.store.db.collection('deliverable_files.files');
  counts.deliverable_files = await files.countDocuments({ 'metadata.request_id': request_id });
  return counts;
};

describe('test_data.purge', () => {
  it("deletes the named requests' engagement and nothing else", async () => {
    const gone = await engaged('prv_purged');
    const kept = await engaged('prv_kept');
    const whole = {
      proposals: 1,
      jobs: 1,
      milestones: 1,
      deliverables: 1,
      deliverable_files: 1,
      disputes: 1,
    };
    expect(await stored(gone)).toEqual(whole);

    const purged = await work.call(testDataOps.milestones, { request_ids: [gone, 'req_unknown'] });
    expect(purged).toEqual(whole);
    expect(await stored(gone)).toEqual({
      proposals: 0,
      jobs: 0,
      milestones: 0,
      deliverables: 0,
      deliverable_files: 0,
      disputes: 0,
    });
    // And the bytes: no chunk of the request's files is left in the bucket.
    expect(
      await work.service.store.db.collection('deliverable_files.chunks').countDocuments({}),
    ).toBe(1);
    expect(await stored(kept)).toEqual(whole);

    // Asked again (a deletion cut short is finished this way): nothing more to delete.
    expect(await work.call(testDataOps.milestones, { request_ids: [gone] })).toEqual({
      proposals: 0,
      jobs: 0,
      milestones: 0,
      deliverables: 0,
      deliverable_files: 0,
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
