import { describe, expect, it } from '@jest/globals';
import { type BusError } from '@handoff/bus';
import { ACCESS_STREAM, accessOps, auditOps, AccessEvent } from '@handoff/contracts';
import { isWellFormedApiKey, sha256Hex } from '@handoff/runtime';
import { eventually } from '@handoff/testkit';
import { jetstreamManager } from '@nats-io/jetstream';
import { CALL_ID, useIntake } from './support/stack.ts';

const staff = { actor: 'staff-1@handoff.test' };

const intake = useIntake('access');

const application = {
  app_name: 'Acme Concierge',
  description: 'Hands travel requests to human agents.',
  contact_email: 'dev@acme.example',
  requested_scopes: ['requests:create', 'requests:read'] as const,
};

async function submit() {
  return intake.call(accessOps.submit, {
    application: { ...application, requested_scopes: [...application.requested_scopes] },
  });
}

describe('the access flow over the bus', () => {
  it('submits, approves, claims once, and verifies the key by its hash', async () => {
    const submitted = await submit();
    expect(submitted).toMatchObject({
      status: 'submitted',
      key_claimed: false,
      granted_scopes: null,
    });
    expect(submitted.application_secret).toMatch(/^happ_/);
    const secret_hash = sha256Hex(submitted.application_secret);

    await expect(
      intake.call(accessOps.status, { id: submitted.id, secret_hash: sha256Hex('happ_wrong') }),
    ).rejects.toMatchObject({
      code: 'application_not_found',
    });
    await expect(
      intake.call(accessOps.claimKey, { id: submitted.id, secret_hash }),
    ).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: {
        resource: 'access_application',
        current_state: 'submitted',
        action: 'claim_key',
        // Approving and rejecting are staff's: none of them is the applicant's to take.
        allowed_actions: [],
      },
    });

    const approved = await intake.call(accessOps.approve, {
      id: submitted.id,
      scopes: ['requests:create'],
      ...staff,
    });
    expect(approved).toMatchObject({
      status: 'approved',
      granted_scopes: ['requests:create'],
      decided_by: staff.actor,
    });
    expect(approved.integration_id).toMatch(/^int_/);
    await expect(
      intake.call(accessOps.reject, { id: submitted.id, reason: 'late', ...staff }),
    ).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: { current_state: 'approved' },
    });

    const key = await intake.call(accessOps.claimKey, { id: submitted.id, secret_hash });
    expect(isWellFormedApiKey(key.api_key)).toBe(true);
    expect(key).toMatchObject({
      integration_id: approved.integration_id,
      scopes: ['requests:create'],
    });
    await expect(
      intake.call(accessOps.claimKey, { id: submitted.id, secret_hash }),
    ).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: { current_state: 'approved', action: 'claim_key', allowed_actions: [] },
    });

    const verified = await intake.call(accessOps.verifyKey, { key_hash: sha256Hex(key.api_key) });
    expect(verified).toMatchObject({
      key_id: key.key_id,
      status: 'active',
      scopes: ['requests:create'],
    });
    await expect(
      intake.call(accessOps.verifyKey, { key_hash: sha256Hex('hk_live_unknown') }),
    ).rejects.toMatchObject({
      code: 'api_key_invalid',
    });

    const status = await intake.call(accessOps.status, { id: submitted.id, secret_hash });
    expect(status).toMatchObject({
      status: 'approved',
      key_claimed: true,
      integration_id: approved.integration_id,
    });
    expect(status).not.toHaveProperty('contact_email');
  });

  it('rotates, revokes (broadcasting the invalidation), and changes scopes for every key', async () => {
    const submitted = await submit();
    const approved = await intake.call(accessOps.approve, {
      id: submitted.id,
      scopes: ['requests:read'],
      ...staff,
    });
    const integration_id = approved.integration_id ?? '';
    const first = await intake.call(accessOps.claimKey, {
      id: submitted.id,
      secret_hash: sha256Hex(submitted.application_secret),
    });
    const second = await intake.call(accessOps.issueKey, {
      integration_id,
      expires_in_days: 7,
      ...staff,
    });
    expect(Date.parse(second.expires_at) - Date.parse(second.created_at)).toBe(
      7 * 24 * 3600 * 1000,
    );

    const revoked = await intake.call(accessOps.revokeKey, { key_id: first.key_id, ...staff });
    expect(revoked).toMatchObject({ status: 'revoked', prefix: first.prefix, last4: first.last4 });
    expect(JSON.stringify(revoked)).not.toContain(first.api_key);
    await eventually(() =>
      intake.invalidations.some((i) => JSON.stringify(i).includes(first.key_id)) ? true : undefined,
    );
    expect(
      (await intake.call(accessOps.verifyKey, { key_hash: sha256Hex(first.api_key) })).status,
    ).toBe('revoked');
    expect(
      (await intake.call(accessOps.verifyKey, { key_hash: sha256Hex(second.api_key) })).status,
    ).toBe('active');

    const updated = await intake.call(accessOps.updateIntegration, {
      integration_id,
      scopes: ['requests:read', 'messages:create'],
      ...staff,
    });
    expect(updated.keys.map((k) => k.status).sort()).toEqual(['active', 'revoked']);
    expect(
      (await intake.call(accessOps.verifyKey, { key_hash: sha256Hex(second.api_key) })).scopes,
    ).toEqual(['requests:read', 'messages:create']);
    await eventually(() =>
      intake.invalidations.some((i) => JSON.stringify(i).includes(integration_id))
        ? true
        : undefined,
    );
  });

  it('refuses a claim after rejection', async () => {
    const submitted = await submit();
    const rejected = await intake.call(accessOps.reject, {
      id: submitted.id,
      reason: 'Not a fit.',
      ...staff,
    });
    expect(rejected).toMatchObject({ status: 'rejected', rejection_reason: 'Not a fit.' });
    const failure = intake.call(accessOps.claimKey, {
      id: submitted.id,
      secret_hash: sha256Hex(submitted.application_secret),
    });
    await expect(failure).rejects.toMatchObject({
      code: 'invalid_state_transition',
      details: { current_state: 'rejected', action: 'claim_key', allowed_actions: [] },
    });
  });

  it('lists applications newest first with cursors and a status filter', async () => {
    const page = await intake.call(accessOps.list, { query: { limit: 2 } });
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const next = await intake.call(accessOps.list, {
      query: { limit: 100, starting_after: page.data[1]?.id },
    });
    const all = await intake.call(accessOps.list, { query: { limit: 100 } });
    expect([...page.data, ...next.data].map((a) => a.id)).toEqual(all.data.map((a) => a.id));
    const rejected = await intake.call(accessOps.list, {
      query: { limit: 100, status: 'rejected' },
    });
    expect(rejected.data.every((a) => a.status === 'rejected')).toBe(true);
    expect(rejected.data.length).toBeGreaterThan(0);
  });

  it('audits every staff action with actor, time, before and after', async () => {
    const audit = await eventually(async () => {
      const list = await intake.call(auditOps.intake, { query: { limit: 100 } });
      return list.data.length >= 6 ? list : undefined;
    });
    const actions = audit.data.map((entry) => entry.action).sort();
    expect(actions).toEqual(
      expect.arrayContaining([
        'application.approved',
        'application.rejected',
        'key.issued',
        'key.revoked',
        'integration.updated',
      ]),
    );
    const revoke = audit.data.find((entry) => entry.action === 'key.revoked');
    expect(revoke).toMatchObject({
      actor: staff.actor,
      call_id: CALL_ID,
      target_type: 'api_key',
    });
    expect(revoke?.before).toMatchObject({ status: 'active' });
    expect(revoke?.after).toMatchObject({ status: 'revoked' });
  });

  it('publishes access events on HANDOFF_ACCESS for staff tools', async () => {
    const jsm = await jetstreamManager(intake.nc);
    const consumer = await jsm.jetstream().consumers.get(ACCESS_STREAM.name);
    const types = new Set<string>();
    const batch = await consumer.fetch({ max_messages: 200, expires: 1_000 });
    for await (const msg of batch) {
      const parsed = AccessEvent.parse(msg.json());
      types.add(parsed.type);
      expect(JSON.stringify(parsed)).not.toMatch(/hk_live_[0-9A-Za-z]{36}|happ_[0-9A-Za-z]{40}/);
      if (types.size === 6) break;
    }
    expect([...types].sort()).toEqual([
      'access.application.approved',
      'access.application.rejected',
      'access.application.submitted',
      'access.integration.updated',
      'access.key.issued',
      'access.key.revoked',
    ]);
  });
});

describe('crash between the write and the publish', () => {
  it('leaves nothing behind: the sweep publishes what a publish failure left in the outbox', async () => {
    const before = (
      await jetstreamManager(intake.nc).then((j) => j.streams.info(ACCESS_STREAM.name))
    ).state.messages;
    const apps = intake.service.store.db.collection('access_applications');
    await apps.insertOne({
      _id: 'app_crash_test',
      status: 'submitted',
      // What the write before a crash leaves: the message and the pending marker.
      outbox: [
        {
          id: 'evt_crashtest0000000000000000',
          subject: 'handoff.access.application.submitted',
          payload: { id: 'evt_crashtest0000000000000000' },
          created_at: new Date(Date.now() - 60_000),
        },
      ],
      outbox_pending: true,
    } as never);
    expect(await intake.service.outbox.sweep()).toBe(1);
    expect(await intake.service.outbox.sweep()).toBe(0);
    const after = (
      await jetstreamManager(intake.nc).then((j) => j.streams.info(ACCESS_STREAM.name))
    ).state.messages;
    expect(after).toBe(before + 1);
    const swept = await apps.findOne({ _id: 'app_crash_test' } as never);
    expect(swept?.outbox).toEqual([]);
    expect(swept?.outbox_pending).toBeUndefined();
  });
});

export type { BusError };
