import { describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import {
  accessSubjects,
  AUDIT_STREAM,
  newId,
  PROVIDER_KEY_PATTERN,
  providerOps,
  requestOps,
} from '@handoff/contracts';
import { isWellFormedProviderKey, sha256Hex } from '@handoff/runtime';
import { eventually } from '@handoff/testkit';
import {
  createProvider,
  createRequest,
  engagementEvent,
  marketplaceRequest,
  opts,
  publishAndSettle,
  readStream,
  staff,
  updateRequest,
  useIntake,
} from './support/stack.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const intake = useIntake('providers');

const issue = (id: string, expires_in_days?: number) =>
  intake.call(providerOps.issueKey, {
    id,
    actor: staff.actor,
    input: expires_in_days === undefined ? {} : { expires_in_days },
  });
const verify = (apiKey: string) =>
  intake.call(providerOps.verifyKey, { key_hash: sha256Hex(apiKey) });
const setStatus = (id: string, status: 'active' | 'suspended') =>
  intake.call(providerOps.update, { id, actor: staff.actor, patch: { status } });

describe('providers', () => {
  it('creates, reads, updates and lists providers, newest first with cursors', async () => {
    const first = await createProvider(intake.nc, {
      name: 'Pipe Works',
      email: 'pipes@example.com',
      categories: ['plumbing-x'],
    });
    expect(first).toMatchObject({
      object: 'provider',
      name: 'Pipe Works',
      email: 'pipes@example.com',
      categories: ['plumbing-x'],
      status: 'active',
      keys: [],
    });
    expect(first.id).toMatch(/^prv_[0-9a-z]{26}$/);
    const second = await createProvider(intake.nc, { categories: ['gardening-x', 'plumbing-x'] });
    const third = await createProvider(intake.nc, { categories: ['gardening-x'] });

    await expect(intake.call(providerOps.get, { id: first.id })).resolves.toEqual(first);
    await expect(intake.call(providerOps.get, { id: 'prv_none' })).rejects.toMatchObject({
      code: 'provider_not_found',
    });

    const renamed = await intake.call(providerOps.update, {
      id: first.id,
      actor: staff.actor,
      patch: { name: 'Pipe Works Ltd', categories: ['x-y'] },
    });
    expect(renamed).toMatchObject({ name: 'Pipe Works Ltd', categories: ['x-y'] });
    expect(Date.parse(renamed.updated_at)).toBeGreaterThanOrEqual(Date.parse(first.updated_at));
    await expect(
      intake.call(providerOps.update, { id: first.id, actor: staff.actor, patch: {} }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(
      intake.call(providerOps.update, { id: 'prv_none', actor: staff.actor, patch: { name: 'N' } }),
    ).rejects.toMatchObject({ code: 'provider_not_found' });

    const gardening = await intake.call(providerOps.list, { limit: 10, category: 'gardening-x' });
    expect(gardening.data.map((p) => p.id)).toEqual([third.id, second.id]);
    const page1 = await intake.call(providerOps.list, { limit: 1, category: 'gardening-x' });
    expect(page1).toMatchObject({ has_more: true, data: [{ id: third.id }] });
    const page2 = await intake.call(providerOps.list, {
      limit: 1,
      category: 'gardening-x',
      starting_after: third.id,
    });
    expect(page2).toMatchObject({ has_more: false, data: [{ id: second.id }] });
    const back = await intake.call(providerOps.list, {
      limit: 5,
      category: 'gardening-x',
      ending_before: second.id,
    });
    expect(back.data.map((p) => p.id)).toEqual([third.id]);

    await setStatus(second.id, 'suspended');
    const suspended = await intake.call(providerOps.list, { limit: 100, status: 'suspended' });
    expect(suspended.data.map((p) => p.id)).toEqual([second.id]);
    const active = await intake.call(providerOps.list, { limit: 100, status: 'active' });
    expect(active.data.map((p) => p.id)).toEqual(expect.arrayContaining([first.id, third.id]));
    expect(active.data.map((p) => p.id)).not.toContain(second.id);
  });

  it('refuses a provider with a bad body', async () => {
    await expect(
      intake.call(providerOps.create, {
        actor: staff.actor,
        input: { name: 'X', email: 'not-an-email', categories: ['Bad Slug'] },
      }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

describe('provider keys', () => {
  it('issues a key shown once, stores only its hash, and verifies it by the hash', async () => {
    const provider = await createProvider(intake.nc, { categories: ['plumbing'] });
    const issued = await issue(provider.id);
    expect(issued.api_key).toMatch(PROVIDER_KEY_PATTERN);
    expect(isWellFormedProviderKey(issued.api_key)).toBe(true);
    expect(issued.key_id).toMatch(/^pvk_/);
    expect(issued.prefix).toBe(issued.api_key.slice(0, 'hpk_live_'.length + 4));
    expect(issued.last4).toBe(issued.api_key.slice(-4));
    // The default lifetime is 90 days.
    expect(Date.parse(issued.expires_at) - Date.parse(issued.created_at)).toBe(90 * DAY_MS);

    await expect(verify(issued.api_key)).resolves.toEqual({
      key_id: issued.key_id,
      provider_id: provider.id,
      provider_status: 'active',
      status: 'active',
      expires_at: issued.expires_at,
    });
    await expect(verify('hpk_live_unknown')).rejects.toMatchObject({ code: 'api_key_invalid' });

    const read = await intake.call(providerOps.get, { id: provider.id });
    expect(read.keys).toEqual([
      expect.objectContaining({
        object: 'provider_key',
        id: issued.key_id,
        prefix: issued.prefix,
        last4: issued.last4,
        status: 'active',
        revoked_at: null,
      }),
    ]);
    expect(JSON.stringify(read)).not.toContain(issued.api_key);

    // Nothing the service stored carries the key: only its SHA-256, prefix and last four.
    await intake.service.outbox.sweep();
    const secretPart = issued.api_key.slice(issued.prefix.length, -4);
    const raw = await intake.service.store.db
      .collection('provider_keys')
      .find({ _id: issued.key_id } as never)
      .toArray();
    expect(raw).toHaveLength(1);
    expect(raw[0]).toMatchObject({ key_hash: sha256Hex(issued.api_key) });
    for (const name of ['provider_keys', 'providers', 'intake_audit_log']) {
      const all = await intake.service.store.db.collection(name).find({}).toArray();
      expect(JSON.stringify(all)).not.toContain(secretPart);
    }
  });

  it('sets a lifetime of up to 365 days and reports expiry', async () => {
    const provider = await createProvider(intake.nc, { categories: ['plumbing'] });
    const long = await issue(provider.id, 365);
    expect(Date.parse(long.expires_at) - Date.parse(long.created_at)).toBe(365 * DAY_MS);
    await expect(issue(provider.id, 366)).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(issue(provider.id, 0)).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(issue('prv_none')).rejects.toMatchObject({ code: 'provider_not_found' });

    const short = await issue(provider.id, 1);
    // After the service's batched outbox removal, which a raw write must not race on FerretDB.
    await intake.service.outbox.flush();
    await intake.service.store.db
      .collection('provider_keys')
      .updateOne({ _id: short.key_id } as never, {
        $set: { expires_at: new Date(Date.now() - 1_000) },
      });
    await expect(verify(short.api_key)).resolves.toMatchObject({ status: 'expired' });
    const read = await intake.call(providerOps.get, { id: provider.id });
    expect(read.keys.map((k) => [k.id, k.status])).toEqual([
      [short.key_id, 'expired'],
      [long.key_id, 'active'],
    ]);
  });

  it('revokes a key at once, broadcasting the invalidation, and again without harm', async () => {
    const provider = await createProvider(intake.nc, { categories: ['plumbing'] });
    const issued = await issue(provider.id);
    const revoked = await intake.call(providerOps.revokeKey, {
      key_id: issued.key_id,
      actor: staff.actor,
    });
    expect(revoked).toMatchObject({
      id: provider.id,
      keys: [{ id: issued.key_id, status: 'revoked' }],
    });
    expect(revoked.keys[0]?.revoked_at).not.toBeNull();
    await eventually(() =>
      intake.invalidations.some((i) => i.key_ids?.includes(issued.key_id)) ? true : undefined,
    );
    await expect(verify(issued.api_key)).resolves.toMatchObject({ status: 'revoked' });
    const again = await intake.call(providerOps.revokeKey, {
      key_id: issued.key_id,
      actor: staff.actor,
    });
    expect(again.keys[0]?.revoked_at).toBe(revoked.keys[0]?.revoked_at);
    await expect(
      intake.call(providerOps.revokeKey, { key_id: 'pvk_none', actor: staff.actor }),
    ).rejects.toMatchObject({ code: 'provider_key_not_found' });
  });

  it('stops every key of a suspended provider at once and issues it none', async () => {
    const provider = await createProvider(intake.nc, { categories: ['plumbing'] });
    const one = await issue(provider.id);
    const two = await issue(provider.id);
    const before = intake.invalidations.length;
    const suspended = await setStatus(provider.id, 'suspended');
    expect(suspended.status).toBe('suspended');
    const broadcast = await eventually(() =>
      intake.invalidations
        .slice(before)
        .find((i) => i.key_ids?.includes(one.key_id) && i.key_ids.includes(two.key_id)),
    );
    expect(broadcast.key_ids).toHaveLength(2);
    await expect(verify(one.api_key)).resolves.toMatchObject({
      provider_status: 'suspended',
      status: 'active',
    });
    await expect(issue(provider.id)).rejects.toMatchObject({ code: 'provider_suspended' });

    const reactivated = await setStatus(provider.id, 'active');
    expect(reactivated.status).toBe('active');
    await expect(verify(two.api_key)).resolves.toMatchObject({ provider_status: 'active' });
    await expect(issue(provider.id)).resolves.toMatchObject({ provider_id: provider.id });
  });

  it('audits the staff actions on providers and their keys, on the audit stream too', async () => {
    const provider = await call(
      intake.nc,
      providerOps.create,
      {
        actor: staff.actor,
        input: { name: 'Audited', email: 'audited@example.com', categories: ['plumbing'] },
      },
      { ...opts, callId: 'call-audit-1' },
    );
    const issued = await issue(provider.id);
    await intake.call(providerOps.revokeKey, { key_id: issued.key_id, actor: 'sec@handoff.test' });
    await setStatus(provider.id, 'suspended');
    await intake.service.outbox.sweep();
    const log = intake.service.store.db.collection('intake_audit_log');
    const entries = await log
      .find({ target_id: { $in: [provider.id, issued.key_id] } } as never)
      .sort({ at: 1 })
      .toArray();
    expect(entries.map((e) => [e.action, e.actor, e.target_type])).toEqual([
      ['provider.created', staff.actor, 'provider'],
      ['provider_key.issued', staff.actor, 'provider_key'],
      ['provider_key.revoked', 'sec@handoff.test', 'provider_key'],
      ['provider.suspended', staff.actor, 'provider'],
    ]);
    expect(entries[0]).toMatchObject({ call_id: 'call-audit-1', before: null });
    expect(entries[3]).toMatchObject({
      before: { status: 'active' },
      after: { status: 'suspended' },
    });

    const subjects = (await readStream(intake.nc, AUDIT_STREAM.name, 'handoff.audit.intake.>'))
      .filter((msg) => {
        const { target_id } = (msg.json() as { data: { target_id: string } }).data;
        return target_id === provider.id || target_id === issued.key_id;
      })
      .map((msg) => msg.subject);
    expect(subjects).toEqual([
      'handoff.audit.intake.provider.created',
      'handoff.audit.intake.provider_key.issued',
      'handoff.audit.intake.provider_key.revoked',
      'handoff.audit.intake.provider.suspended',
    ]);
  });
});

describe('what a provider sees', () => {
  it('sees routed requests, open marketplace requests of its categories, and engaged ones', async () => {
    // Capacity 0: automatic routing offers it nothing, so what it sees is the marketplace's and
    // staff's doing alone.
    const plumber = await createProvider(intake.nc, {
      categories: ['plumbing', 'heating'],
      capacity: 0,
    });
    const webdev = await createProvider(intake.nc, {
      categories: ['web-development'],
      capacity: 0,
    });

    const routed = await createRequest(intake.nc, {
      category: 'web-development',
      contact_permission: true,
      name: 'Ada',
      email: 'ada@example.com',
      company: 'Analytical',
      website: 'https://ada.example.com',
    });
    await updateRequest(intake.nc, routed.id, {
      status: 'routed',
      routing: { mode: 'direct', provider_ids: [plumber.id] },
    });
    const market = await marketplaceRequest(intake.nc, 'heating', { email: 'hidden@example.com' });
    const pending = await createRequest(intake.nc, {
      marketplace_opt_in: true,
      category: 'plumbing',
    });
    const closed = await marketplaceRequest(intake.nc, 'plumbing');
    await updateRequest(intake.nc, closed.id, { status: 'cancelled' });
    const otherCategory = await marketplaceRequest(intake.nc, 'web-development');
    const unrelated = await createRequest(intake.nc, { category: 'plumbing' });

    const list = await intake.call(providerOps.requests, { provider_id: plumber.id, limit: 100 });
    expect(list.data.map((r) => [r.id, r.relation])).toEqual([
      [market.id, 'marketplace'],
      [routed.id, 'routed'],
    ]);
    const ids = list.data.map((r) => r.id);
    for (const hidden of [pending, closed, otherCategory, unrelated]) {
      expect(ids).not.toContain(hidden.id);
      await expect(
        intake.call(providerOps.request, { provider_id: plumber.id, request_id: hidden.id }),
      ).rejects.toMatchObject({ code: 'request_not_found' });
    }

    // Contact details only with the customer's permission.
    const withPermission = await intake.call(providerOps.request, {
      provider_id: plumber.id,
      request_id: routed.id,
    });
    expect(withPermission).toMatchObject({
      object: 'request',
      relation: 'routed',
      integration_id: 'int_a',
      contact_permission: true,
      customer: {
        name: 'Ada',
        email: 'ada@example.com',
        company: 'Analytical',
        website: 'https://ada.example.com',
      },
    });
    const withoutPermission = list.data.find((r) => r.id === market.id);
    expect(withoutPermission).toMatchObject({
      contact_permission: false,
      customer: { name: null, email: null, company: null, website: null },
    });
    expect(JSON.stringify(list)).not.toContain('hidden@example.com');
    expect(withoutPermission).not.toHaveProperty('integration_id');
    expect(withoutPermission).not.toHaveProperty('routing');

    // The web developer sees only its own category's marketplace request.
    const other = await intake.call(providerOps.requests, { provider_id: webdev.id, limit: 100 });
    expect(other.data.map((r) => [r.id, r.relation])).toEqual([[otherCategory.id, 'marketplace']]);
    await expect(
      intake.call(providerOps.request, { provider_id: webdev.id, request_id: routed.id }),
    ).rejects.toMatchObject({ code: 'request_not_found' });

    // Engaged: the accepted proposal keeps the request visible after the marketplace closes.
    await publishAndSettle(
      intake.nc,
      engagementEvent('proposal.accepted', otherCategory.id, webdev.id),
    );
    const engaged = await intake.call(providerOps.request, {
      provider_id: webdev.id,
      request_id: otherCategory.id,
    });
    expect(engaged).toMatchObject({ status: 'in_progress', relation: 'engaged' });
    const rival = await createProvider(intake.nc, { categories: ['web-development'] });
    await expect(
      intake.call(providerOps.request, { provider_id: rival.id, request_id: otherCategory.id }),
    ).rejects.toMatchObject({ code: 'request_not_found' });

    // Engaged outranks routed.
    await publishAndSettle(intake.nc, engagementEvent('proposal.accepted', routed.id, plumber.id));
    await expect(
      intake.call(providerOps.request, { provider_id: plumber.id, request_id: routed.id }),
    ).resolves.toMatchObject({ relation: 'engaged', status: 'in_progress' });

    await expect(
      intake.call(providerOps.request, { provider_id: plumber.id, request_id: 'req_none' }),
    ).rejects.toMatchObject({ code: 'request_not_found' });
  });

  it('pages a provider’s requests newest first, both ways', async () => {
    const provider = await createProvider(intake.nc, { categories: ['roofing'] });
    const made = [];
    for (let i = 0; i < 3; i += 1) made.push(await marketplaceRequest(intake.nc, 'roofing'));
    const [a, b, c] = made.map((r) => r.id);
    const page = (extra: Record<string, string | number>) =>
      intake.call(providerOps.requests, { provider_id: provider.id, limit: 2, ...extra });
    const first = await page({});
    expect(first.data.map((r) => r.id)).toEqual([c, b]);
    expect(first.has_more).toBe(true);
    const second = await page({ starting_after: b ?? '' });
    expect(second.data.map((r) => r.id)).toEqual([a]);
    expect(second.has_more).toBe(false);
    const back = await page({ ending_before: a ?? '' });
    expect(back.data.map((r) => r.id)).toEqual([c, b]);
  });

  it('shows nothing to a suspended or unknown provider', async () => {
    const provider = await createProvider(intake.nc, { categories: ['plumbing'] });
    const request = await createRequest(intake.nc);
    await updateRequest(intake.nc, request.id, {
      status: 'routed',
      routing: { mode: 'direct', provider_ids: [provider.id] },
    });
    await expect(
      intake.call(providerOps.request, { provider_id: provider.id, request_id: request.id }),
    ).resolves.toMatchObject({ relation: 'routed' });
    await setStatus(provider.id, 'suspended');
    await expect(
      intake.call(providerOps.request, { provider_id: provider.id, request_id: request.id }),
    ).rejects.toMatchObject({ code: 'request_not_found' });
    await expect(
      intake.call(providerOps.requests, { provider_id: provider.id, limit: 10 }),
    ).rejects.toMatchObject({ code: 'provider_not_found' });
    await expect(
      intake.call(providerOps.requests, { provider_id: 'prv_none', limit: 10 }),
    ).rejects.toMatchObject({ code: 'provider_not_found' });
  });
});

describe('the provider cache', () => {
  it('reads a provider once, and drops it at once on a change, here or broadcast by another replica', async () => {
    // Out of automatic routing (capacity 0): the request stays a marketplace one to it.
    const provider = await createProvider(intake.nc, { categories: ['glazing'], capacity: 0 });
    const market = await marketplaceRequest(intake.nc, 'glazing');
    const see = () =>
      intake.call(providerOps.request, { provider_id: provider.id, request_id: market.id });
    await expect(see()).resolves.toMatchObject({ relation: 'marketplace' });

    // Another replica's change, as it makes it: the database first, then the broadcast. Until
    // the broadcast, this replica answers from what it read (the same trust as the gateway's).
    const providers = intake.service.store.db.collection<{ _id: string }>('providers');
    await providers.updateOne({ _id: provider.id }, { $set: { categories: ['roofing'] } });
    await expect(see()).resolves.toMatchObject({ relation: 'marketplace' });
    intake.nc.publish(accessSubjects.invalidate, JSON.stringify({ provider_ids: [provider.id] }));
    // Milliseconds on a quiet machine; a local CI beside a soak (load 30 on 2 cores) took over
    // the default 10 s.
    await eventually(
      async () =>
        (await see().catch((error: unknown) => error)) instanceof Error ? true : undefined,
      { timeoutMs: 60_000, what: 'the broadcast to drop the provider' },
    );
    await expect(see()).rejects.toMatchObject({ code: 'request_not_found' });

    // This replica's own change applies to its next read, and is broadcast to the others.
    const before = intake.invalidations.length;
    await intake.call(providerOps.update, {
      id: provider.id,
      actor: staff.actor,
      patch: { categories: ['glazing'] },
    });
    await expect(see()).resolves.toMatchObject({ relation: 'marketplace' });
    await eventually(() =>
      intake.invalidations.slice(before).find((i) => i.provider_ids?.includes(provider.id)),
    );
  });
});

describe('the request cache', () => {
  it('keeps a request a provider checks until its next request event, here or from another replica', async () => {
    const provider = await createProvider(intake.nc, { categories: ['tiling'] });
    const request = await createRequest(intake.nc);
    const routed = { mode: 'direct' as const, provider_ids: [provider.id] };
    await updateRequest(intake.nc, request.id, { status: 'routed', routing: routed });
    const see = () =>
      intake.call(providerOps.request, { provider_id: provider.id, request_id: request.id });
    await expect(see()).resolves.toMatchObject({ relation: 'routed', status: 'routed' });

    // Another replica's change, as it makes it: the database first, then the event. Until the
    // event, this replica answers from what it read.
    const requests = intake.service.store.db.collection<{ _id: string }>('requests');
    await requests.updateOne({ _id: request.id }, { $set: { 'routing.provider_ids': [] } });
    await expect(see()).resolves.toMatchObject({ relation: 'routed' });
    intake.nc.publish(
      `handoff.events.request.updated`,
      JSON.stringify({
        id: newId('evt'),
        type: 'request.updated',
        timestamp: new Date().toISOString(),
        data: { request_id: request.id, sequence: 99, object: { id: request.id } },
      }),
    );
    await eventually(async () =>
      (await see().catch((error: unknown) => error)) instanceof Error ? true : undefined,
    );
    await expect(see()).rejects.toMatchObject({ code: 'request_not_found' });

    // A change through intake is heard before it is answered: the next check sees it.
    await updateRequest(intake.nc, request.id, { routing: routed });
    await expect(see()).resolves.toMatchObject({ relation: 'routed' });
    await updateRequest(intake.nc, request.id, { status: 'cancelled' });
    await expect(see()).resolves.toMatchObject({ status: 'cancelled' });
  });
});

describe('routing by staff', () => {
  it('refuses unknown and suspended providers, pointing at each', async () => {
    const active = await createProvider(intake.nc, { categories: ['plumbing'] });
    const suspended = await createProvider(intake.nc, { categories: ['plumbing'] });
    await setStatus(suspended.id, 'suspended');
    const request = await createRequest(intake.nc);
    await expect(
      updateRequest(intake.nc, request.id, {
        status: 'routed',
        routing: { mode: 'direct', provider_ids: [active.id, 'prv_unknown', suspended.id] },
      }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      details: {
        errors: [
          { pointer: '/routing/provider_ids/1', code: 'unknown_provider' },
          { pointer: '/routing/provider_ids/2', code: 'provider_suspended' },
        ],
      },
    });
    const unchanged = await intake.call(requestOps.getAsStaff, { id: request.id });
    expect(unchanged).toMatchObject({ status: 'submitted', routing: { provider_ids: [] } });
    await expect(
      updateRequest(intake.nc, request.id, {
        status: 'routed',
        routing: { mode: 'direct', provider_ids: [active.id] },
      }),
    ).resolves.toMatchObject({ routing: { provider_ids: [active.id] } });
  });
});
