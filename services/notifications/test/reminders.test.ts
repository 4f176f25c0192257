import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call } from '@handoff/bus';
import { notificationOps } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import {
  createProvider,
  disputeObject,
  handledTimes,
  linksIn,
  mailsTo,
  milestoneObject,
  opts,
  PUBLIC_URL,
  publishEvent,
  queuedReminders,
  routedRequest,
  startStack,
  waitForMails,
  type Stack,
} from './support/stack.ts';

/** Reminders go this long before a deadline (short, so the tests wait seconds, not a day). */
const BEFORE_MS = 20_000;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('remind', { env: { REMINDER_BEFORE_MS: String(BEFORE_MS) } });
});

afterAll(async () => {
  await stack.stop();
});

/** A provider with a request routed to it, its routing mail already in. */
async function engaged(label: string) {
  const provider = await createProvider(stack, label);
  const request = await routedRequest(stack, [provider.id]);
  await waitForMails(stack.mail, provider.email, 1);
  return { provider, request };
}

/** The reminder's handling line of an object (it is logged once it was sent or dropped). */
const reminderHandled = (objectId: string) =>
  eventually(
    () =>
      stack.lines.all.find(
        (line) => line.msg === 'reminder handled' && line.object_id === objectId,
      ),
    { timeoutMs: 60_000, what: `the reminder of ${objectId}` },
  );

describe('deadline reminders', () => {
  it('reminds the provider of a milestone before its deadline, not before the reminder is due', async () => {
    const { provider, request } = await engaged('due');
    const deadline = new Date(Date.now() + BEFORE_MS + 15_000);
    const milestone = milestoneObject(request.id, provider.id, {
      deadline_at: deadline.toISOString(),
    });
    const event = await publishEvent(stack, 'milestone.created', request.id, milestone);
    const reminder = (await waitForMails(stack.mail, provider.email, 2, 60_000)).find((m) =>
      m.Subject.startsWith('“Replace the washer” is due'),
    );
    if (!reminder) throw new Error('no reminder');
    const summary = (await mailsTo(stack.mail, provider.email)).find((m) => m.ID === reminder.ID);
    const sentAt = new Date(summary?.Created ?? 0).getTime();
    // Held by the server until due, then sent while the deadline is still ahead.
    expect(sentAt).toBeGreaterThanOrEqual(deadline.getTime() - BEFORE_MS - 1_000);
    expect(sentAt).toBeLessThan(deadline.getTime());
    expect(reminder.Text).toMatch(
      /is due in (less than a minute|\d+ minutes?), on \w{3} \d{1,2} \w{3} at \d\d:\d\d UTC\./,
    );
    expect(linksIn(reminder.Text).filter((l) => !l.includes('/unsubscribe#'))).toEqual([
      `${PUBLIC_URL}/workspace/requests/${request.id}`,
    ]);
    const headers = await stack.mail.headers(reminder.ID);
    expect(headers['X-Handoff-Event']?.[0]).toBe(event.id);
    expect(headers['List-Unsubscribe']?.[0]).toContain('/workspace/unsubscribe#token=');
    expect(await queuedReminders(stack, milestone.id)).toBe(0);
  });

  it('reminds at once when the deadline is nearer than the reminder time, and of an open dispute', async () => {
    const { provider, request } = await engaged('soon');
    const dispute = disputeObject(request.id, provider.id, {
      deadline_at: new Date(Date.now() + BEFORE_MS - 5_000).toISOString(),
    });
    await publishEvent(stack, 'dispute.created', request.id, dispute);
    const reminder = (await waitForMails(stack.mail, provider.email, 2, 30_000)).find((m) =>
      m.Subject.startsWith('A case about'),
    );
    if (!reminder) throw new Error('no reminder');
    expect(reminder.Subject).toBe(
      'A case about “Leaking tap” needs your answer in less than a minute',
    );
    expect(reminder.Text).toContain('after that, staff take it over');
  });

  it('sends nothing when the milestone moved on before its reminder was due', async () => {
    const { provider, request } = await engaged('moved');
    const milestone = milestoneObject(request.id, provider.id, {
      deadline_at: new Date(Date.now() + BEFORE_MS + 5_000).toISOString(),
    });
    const open = await publishEvent(stack, 'milestone.created', request.id, milestone, {
      sequence: 5,
    });
    await handledTimes(stack, open.id);
    expect(await queuedReminders(stack, milestone.id)).toBe(1);
    await publishEvent(
      stack,
      'milestone.submitted',
      request.id,
      { ...milestone, status: 'submitted', deadline_at: null },
      { sequence: 6 },
    );
    expect((await reminderHandled(milestone.id)).mails).toEqual(['moved_on']);
    expect(await queuedReminders(stack, milestone.id)).toBe(0);
    expect(await mailsTo(stack.mail, provider.email)).toHaveLength(1);
  });

  it('keeps the latest state of an object: an older event arriving late schedules nothing', async () => {
    const { provider, request } = await engaged('late');
    const milestone = milestoneObject(request.id, provider.id, { status: 'submitted' });
    const newer = await publishEvent(stack, 'milestone.submitted', request.id, milestone, {
      sequence: 9,
    });
    await handledTimes(stack, newer.id);
    const older = await publishEvent(
      stack,
      'milestone.created',
      request.id,
      {
        ...milestone,
        status: 'open',
        deadline_at: new Date(Date.now() + 60_000).toISOString(),
      },
      { sequence: 8 },
    );
    await handledTimes(stack, older.id);
    expect(await queuedReminders(stack, milestone.id)).toBe(0);
  });

  it('sends no reminder to a provider that turned reminders off', async () => {
    const { provider, request } = await engaged('off');
    await call(
      stack.nc,
      notificationOps.updateSettings,
      { provider_id: provider.id, patch: { kinds: { deadline_reminder: false } } },
      opts,
    );
    // Due at once: the deadline is nearer than the reminder time.
    const milestone = milestoneObject(request.id, provider.id, {
      deadline_at: new Date(Date.now() + BEFORE_MS - 5_000).toISOString(),
    });
    await publishEvent(stack, 'milestone.created', request.id, milestone);
    expect((await reminderHandled(milestone.id)).mails).toEqual(['skipped']);
    expect(await mailsTo(stack.mail, provider.email)).toHaveLength(1);
  });
});
