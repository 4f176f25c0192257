// What the notifications tests share: the service with intake beside it (providers and requests
// are intake's), a test connection that publishes events as the other services would, Mailpit.
import { call } from '@handoff/bus';
import { bootstrap as startIntake } from '@handoff/intake';
import {
  accessOps,
  newId,
  notificationOps,
  providerOps,
  requestOps,
  type MailKind,
  type EventEnvelope,
  type EventType,
  type Provider,
  type Request,
} from '@handoff/contracts';
import { sha256Hex } from '@handoff/runtime';
import { createLogger } from '@handoff/observability';
import {
  eventually,
  mailpitClient,
  natsOptions,
  serviceEnv,
  testServers,
  uniqueDatabase,
  type MailMessage,
  type MailpitClient,
  type MailSummary,
} from '@handoff/testkit';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { bootstrap } from '../../src/bootstrap.ts';

export const PUBLIC_URL = 'https://handoff.test';
export const opts = { timeoutMs: 10_000 };
const staff = { actor: 'ops@handoff.test' };

export type Notifications = Awaited<ReturnType<typeof bootstrap>>;
type Intake = Awaited<ReturnType<typeof startIntake>>;

/** A unique address per test, so tests find their own mail in a shared Mailpit. */
export const address = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

/** Log lines the service wrote (level debug), to wait for an event's handling. */
export interface Lines {
  all: Record<string, unknown>[];
}

export interface Stack {
  nc: NatsConnection;
  js: JetStreamClient;
  intake: Intake;
  notifications: Notifications;
  mail: MailpitClient;
  /** STAFF_NOTIFY_EMAIL of this stack. */
  staff: string;
  lines: Lines;
  database: string;
  /** The notifications service's variables, to start it again the same way. */
  env: Record<string, string>;
  /** Starts the notifications service again (after `notifications.stop()`). */
  restart(): Promise<Notifications>;
  stop(): Promise<void>;
}

export function capturedLogger(lines: Lines) {
  return createLogger({
    service: 'notifications-test',
    version: 'test',
    level: 'debug',
    destination: {
      write: (line: string) => {
        lines.all.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  });
}

export async function startStack(
  label: string,
  options: { env?: Record<string, string>; mailpit?: { url: string; smtpUrl: string } } = {},
): Promise<Stack> {
  const nc = await connect({ ...natsOptions() });
  const intake = await startIntake({ env: serviceEnv('intake', uniqueDatabase(`${label}i`)) });
  const database = uniqueDatabase(label);
  const staffAddress = address(`${label}-staff`);
  const env = {
    ...serviceEnv('notifications', database),
    PUBLIC_URL,
    STAFF_NOTIFY_EMAIL: staffAddress,
    ...(options.mailpit ? { SMTP_URL: options.mailpit.smtpUrl } : {}),
    ...options.env,
  };
  const lines: Lines = { all: [] };
  const start = () => bootstrap({ env, logger: capturedLogger(lines) });
  const stack: Stack = {
    nc,
    js: jetstream(nc),
    intake,
    notifications: await start(),
    mail: mailpitClient(options.mailpit?.url ?? testServers().mailpitUrl),
    staff: staffAddress,
    lines,
    database,
    env,
    async restart() {
      stack.notifications = await start();
      return stack.notifications;
    },
    async stop() {
      await stack.notifications.stop();
      await intake.stop();
      await nc.close();
    },
  };
  return stack;
}

export async function createProvider(
  stack: Pick<Stack, 'nc'>,
  label: string,
  categories: string[] = ['plumbing'],
): Promise<Provider> {
  return call(
    stack.nc,
    providerOps.create,
    {
      actor: staff.actor,
      input: { name: `Ada ${label}`, email: address(label), categories },
    },
    opts,
  );
}

/** A request staff routed straight to `providerIds` (its `request.updated` routes it). */
export async function routedRequest(
  stack: Pick<Stack, 'nc'>,
  providerIds: string[],
  input: Record<string, unknown> = {},
): Promise<Request> {
  const created = await call(
    stack.nc,
    requestOps.create,
    {
      integration_id: 'int_notify',
      token_hash: sha256Hex(`hrt_${randomBytes(8).toString('hex')}`),
      input: {
        message: 'The tap in the kitchen drips all night.',
        subject: 'Leaking tap',
        ...input,
      },
    },
    opts,
  );
  return call(
    stack.nc,
    requestOps.update,
    {
      id: created.id,
      patch: { status: 'routed', routing: { mode: 'direct', provider_ids: providerIds } },
      ...staff,
    },
    opts,
  );
}

/** A new provider with a request routed to it, its routing mail already in. */
export async function routed(stack: Stack, label: string) {
  const provider = await createProvider(stack, label);
  const request = await routedRequest(stack, [provider.id]);
  await waitForMails(stack.mail, provider.email, 1);
  return { provider, request };
}

/** Intake's call for a sign-in mail with `token`, valid 15 minutes from now. */
export const sendSignIn = (
  stack: Pick<Stack, 'nc'>,
  provider: { id: string; email: string; name: string },
  token: string,
) =>
  call(
    stack.nc,
    notificationOps.sendSignIn,
    {
      provider_id: provider.id,
      to: provider.email,
      name: provider.name,
      token,
      expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
    },
    opts,
  );

/** A provider's email settings. */
export const settingsOf = (stack: Pick<Stack, 'nc'>, providerId: string) =>
  call(stack.nc, notificationOps.settings, { provider_id: providerId }, opts);

/** Turns kinds of a provider's email on or off. */
export const setKinds = (
  stack: Pick<Stack, 'nc'>,
  providerId: string,
  kinds: Partial<Record<MailKind, boolean>>,
) =>
  call(
    stack.nc,
    notificationOps.updateSettings,
    { provider_id: providerId, patch: { kinds } },
    opts,
  );

/** A provider's unread messages of each request. */
export const unreadOf = (stack: Pick<Stack, 'nc'>, providerId: string, requestIds: string[]) =>
  call(
    stack.nc,
    notificationOps.unread,
    { provider_id: providerId, request_ids: requestIds },
    opts,
  );

export async function createRequest(stack: Pick<Stack, 'nc'>, input: Record<string, unknown> = {}) {
  return call(
    stack.nc,
    requestOps.create,
    {
      integration_id: 'int_notify',
      token_hash: sha256Hex(`hrt_${randomBytes(8).toString('hex')}`),
      input: { message: 'Please paint the fence.', ...input },
    },
    opts,
  );
}

export function submitApplication(stack: Pick<Stack, 'nc'>, appName: string) {
  return call(
    stack.nc,
    accessOps.submit,
    {
      application: {
        app_name: appName,
        description: 'An agent that books plumbers.',
        contact_email: address('applicant'),
        requested_scopes: ['requests:create'],
      },
    },
    opts,
  );
}

let sequence = 10_000;

/** An event as another service publishes it (`msgId`: its Nats-Msg-Id, the event id by default). */
export async function publishEvent(
  stack: Stack,
  type: EventType,
  requestId: string,
  object: Record<string, unknown>,
  options: { id?: string; sequence?: number; msgId?: string; timestamp?: string } = {},
): Promise<EventEnvelope> {
  sequence += 1;
  const event: EventEnvelope = {
    id: options.id ?? newId('evt'),
    type,
    timestamp: options.timestamp ?? new Date().toISOString(),
    livemode: true,
    data: { request_id: requestId, sequence: options.sequence ?? sequence, object },
  };
  await stack.js.publish(`handoff.events.${type}`, JSON.stringify(event), {
    msgID: options.msgId ?? event.id,
  });
  return event;
}

/** A message on the request from its customer's side (or the provider, or staff). */
export const messagePosted = (stack: Stack, requestId: string, text: string, author = 'customer') =>
  publishEvent(stack, 'message.created', requestId, messageObject(requestId, author, text));

/** The customer's decision on the provider's proposal. */
export const proposalDecided = (
  stack: Stack,
  requestId: string,
  providerId: string,
  status: 'accepted' | 'declined',
  extra: Record<string, unknown> = {},
) =>
  publishEvent(
    stack,
    `proposal.${status}`,
    requestId,
    proposalObject(requestId, providerId, status, extra),
  );

/** A milestone the customer approved. */
export const milestoneApproved = (stack: Stack, requestId: string, providerId: string) =>
  publishEvent(
    stack,
    'milestone.approved',
    requestId,
    milestoneObject(requestId, providerId, { status: 'approved', approved_by: 'customer' }),
  );

/**
 * The lines saying the service handled event `eventId`, or passed over one that can give no mail
 * (one per delivery).
 */
export function handled(stack: Stack, eventId: string): Record<string, unknown>[] {
  return stack.lines.all.filter(
    (line) =>
      line.event_id === eventId &&
      (line.msg === 'event handled' || line.msg === 'event passed over'),
  );
}

/** Waits until the service has handled `eventId` `times` times; answers the last line. */
export function handledTimes(stack: Stack, eventId: string, times = 1) {
  return eventually(
    () => {
      const lines = handled(stack, eventId);
      return lines.length >= times ? lines[lines.length - 1] : undefined;
    },
    { timeoutMs: 20_000, what: `event ${eventId} handled ${times} time(s)` },
  );
}

export async function mailsTo(mail: MailpitClient, to: string): Promise<MailSummary[]> {
  return (await mail.search(`to:"${to}"`)).messages;
}

/** Waits for at least `count` mails to `to`; answers them, the whole of each, oldest first. */
export async function waitForMails(
  mail: MailpitClient,
  to: string,
  count = 1,
  timeoutMs = 20_000,
): Promise<MailMessage[]> {
  const found = await eventually(
    async () => {
      const list = await mailsTo(mail, to);
      return list.length >= count ? list : undefined;
    },
    { timeoutMs, what: `${count} mail(s) to ${to}` },
  );
  // Oldest first by the summaries' `Created` (a whole message names its time `Date` instead).
  const oldestFirst = [...found].sort((a, b) => a.Created.localeCompare(b.Created));
  return Promise.all(oldestFirst.map((summary) => mail.message(summary.ID)));
}

/** Waits for `count` mails to `to`; answers the one whose subject holds `subject`. */
export async function mailAbout(
  mail: MailpitClient,
  to: string,
  count: number,
  subject: string,
): Promise<MailMessage> {
  const found = (await waitForMails(mail, to, count)).find((m) => m.Subject.includes(subject));
  if (!found) throw new Error(`no mail to ${to} about “${subject}”`);
  return found;
}

/** The links of a mail's text part. */
export const linksIn = (text: string) => text.match(/https?:\/\/[^\s<>"]+/g) ?? [];

/** How many messages wait in the reminder queue for an object (0 once it was sent or dropped). */
export async function queuedReminders(stack: Stack, objectId: string): Promise<number> {
  const jsm = await jetstreamManager(stack.nc);
  const info = await jsm.streams.info('HANDOFF_REMINDERS', {
    subjects_filter: `handoff.reminders.${objectId}`,
  });
  return Object.values(info.state.subjects ?? {}).reduce((sum, n) => sum + n, 0);
}

// --- Objects as the owning services put them in their events -------------------------------

const now = () => new Date().toISOString();
const TIMES = () => ({ created_at: now(), updated_at: now(), deadline_at: null });
/** What every object of a request starts with: its kind, a new id, and the request's id. */
const head = (object: string, prefix: Parameters<typeof newId>[0], requestId: string) => ({
  object,
  id: newId(prefix),
  request_id: requestId,
});
/** Fields of an object beyond (or instead of) the usual ones. */
type Extra = Record<string, unknown>;
/** What an object of the job has: the job's id and its provider. */
const work = (providerId: string) => ({ job_id: newId('job'), provider_id: providerId });

export function messageObject(requestId: string, author: string, text: string) {
  return {
    ...head('message', 'msg', requestId),
    author_role: author,
    message: text,
    created_at: now(),
  };
}

export function proposalObject(
  requestId: string,
  providerId: string,
  status: 'accepted' | 'declined',
  extra: Record<string, unknown> = {},
) {
  return {
    ...head('proposal', 'prp', requestId),
    provider_id: providerId,
    provider_name: 'Ada',
    message: 'I can fix it tomorrow.',
    amount: 120,
    currency: 'EUR',
    estimated_days: 2,
    milestones: [],
    status,
    job_id: status === 'accepted' ? newId('job') : null,
    decline_reason: null,
    ...TIMES(),
    decided_at: now(),
    ...extra,
  };
}

export function milestoneObject(requestId: string, providerId: string, extra: Extra = {}) {
  return {
    ...head('milestone', 'mst', requestId),
    ...work(providerId),
    title: 'Replace the washer',
    description: null,
    amount: 60,
    currency: 'EUR',
    status: 'open',
    progress: 0,
    progress_note: null,
    revision: 1,
    submission_note: null,
    change_request_reason: null,
    approved_by: null,
    due_at: null,
    ...TIMES(),
    submitted_at: null,
    approved_at: null,
    ...extra,
  };
}

export function paymentObject(requestId: string) {
  return {
    ...head('payment', 'pay', requestId),
    payment_request_id: newId('prq'),
    amount: 60,
    currency: 'EUR',
    provider: 'manual',
    provider_reference: null,
    status: 'completed',
    failure_reason: null,
    ...TIMES(),
    completed_at: now(),
  };
}

export function paymentRequestObject(requestId: string) {
  return {
    ...head('payment_request', 'prq', requestId),
    amount: 60,
    currency: 'EUR',
    description: 'The washer and an hour of work',
    reference: null,
    status: 'pending_approval',
    rejection_reason: null,
    created_at: now(),
    decided_at: null,
  };
}

export function disputeObject(requestId: string, providerId: string, extra: Extra = {}) {
  return {
    ...head('dispute', 'dsp', requestId),
    ...work(providerId),
    milestone_id: null,
    kind: 'dispute',
    reason: 'The tap still drips.',
    amount: null,
    currency: null,
    status: 'open',
    comments: [],
    resolution: null,
    ...TIMES(),
    ...extra,
  };
}

/**
 * The next event of `type` about `requestId` that a service publishes (subscribe before acting).
 */
export function nextEvent(
  stack: Stack,
  type: EventType,
  requestId?: string,
): { event: Promise<EventEnvelope>; cancel(): void } {
  const sub = stack.nc.subscribe(`handoff.events.${type}`);
  const event = (async () => {
    for await (const msg of sub) {
      const envelope = msg.json<EventEnvelope>();
      if (!requestId || envelope.data.request_id === requestId) {
        sub.unsubscribe();
        return envelope;
      }
    }
    throw new Error(`no ${type} event`);
  })();
  return { event, cancel: () => sub.unsubscribe() };
}
