// Mail: how fast events become mails handed to the SMTP server, against what one process gets
// from the same server sending with nodemailer alone. Both send to the stack's Mailpit.
//
// `mail-deliveries` publishes `proposal.declined` events straight onto the bus, as milestones'
// outbox does (each with a proposal of its own, cloned from a real declined one), so that every
// event means one mail to the bench's provider and nothing else on the path is measured; the
// notifications service reads the request from intake and the provider from its cache, renders
// the mail, logs it, hands it over and marks it sent. Its latency is from the publish to the
// moment the service recorded the server's acceptance (`sent_at` in its mail log).
import { natsConnectionOptions } from '@handoff/bus';
import { EVENT_OWNER_HEADER, newId, subjects, type EventEnvelope } from '@handoff/contracts';
import { callJson } from '@handoff/devstack/gateway-client';
import { mailpitClient } from '@handoff/testkit';
import { jetstream } from '@nats-io/jetstream';
import { connect, headers as natsHeaders } from '@nats-io/transport-node';
import { MongoClient } from 'mongodb';
import nodemailer from 'nodemailer';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequest, requestHeaders, requestPath } from '../fixtures/agent-api.ts';
import { createProposal, onboardProvider, routeRequest } from '../fixtures/engagement.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import { describeError, recordNs } from '../measure.ts';
import type { Fixture, Measurement, ObservedLoad, Scenario } from '../types.ts';

/** Mails at work at once: the notifications service's events at once (MAIL_CONCURRENCY). */
export const MAIL_IN_FLIGHT = 16;
/** The SMTP connections both sides keep open (SMTP_POOL_SIZE's default). */
const SMTP_POOL = 5;
/** How long the end of a run waits for the mails still under way. */
const DRAIN_TIMEOUT_MS = 60_000;
const POLL_MS = 10;
const NS_PER_MS = 1_000_000;

/** A notification-sized mail: a text part, an HTML part and the headers the service sets. */
function sampleMail(from: string, to: string, n: number) {
  const line =
    'Your proposal of $1,200.00 for “A one-page website with an order form” was declined.';
  return {
    from,
    to,
    subject: 'Your proposal for “A one-page website with an order form” was declined',
    text: `Hello,\n\n${line}\n\n${'The customer chose another proposal. '.repeat(8)}\n\nOpen the request: http://127.0.0.1:8080/workspace/requests/req_bench\n`,
    html: `<!doctype html><html><body><div style="max-width:600px;margin:0 auto;font-family:sans-serif"><p>Hello,</p><p>${line}</p><p>${'The customer chose another proposal. '.repeat(8)}</p><p><a href="http://127.0.0.1:8080/workspace/requests/req_bench" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Open the request</a></p></div></body></html>`,
    messageId: `<bench-raw-${n}-${Date.now()}@handoff.local>`,
    headers: { 'X-Handoff-Event': `evt_bench_raw_${n}` },
  };
}

/**
 * The baseline: one process sending notification-sized mails with nodemailer over a pool of
 * {@link SMTP_POOL} connections to the stack's Mailpit, {@link MAIL_IN_FLIGHT} at once; each call
 * resolves when the server accepted its mail.
 */
export function rawSmtpSend(stack: Fixture<GatewayStack>): Scenario {
  return {
    name: 'raw-smtp-send',
    connections: MAIL_IN_FLIGHT,
    description: `nodemailer sendMail of a text+HTML mail over a pool of ${SMTP_POOL} SMTP connections to the stack's Mailpit, ${MAIL_IN_FLIGHT} at once; closed loop`,
    uses: [stack],
    async setup(ctx) {
      const { smtpUrl } = await ctx.use(stack);
      const transport = nodemailer.createTransport({
        url: smtpUrl,
        pool: true,
        maxConnections: SMTP_POOL,
        maxMessages: Infinity,
      } as Parameters<typeof nodemailer.createTransport>[0]);
      ctx.teardown(() => transport.close());
      let n = 0;
      return {
        kind: 'call',
        call: () => {
          n += 1;
          return transport.sendMail(
            sampleMail('Handoff <no-reply@handoff.local>', `raw-${n % 100}@bench.example`, n),
          );
        },
      };
    },
  };
}

/** A real declined proposal of a request routed to the bench's provider: the events' model. */
async function declinedProposal(stack: GatewayStack, ctx: { signal: AbortSignal }) {
  const options = { signal: ctx.signal };
  const provider = await onboardProvider(stack, 'Bench mail provider', options);
  const request = await createRequest(stack, options);
  await routeRequest(stack, request.id, [provider.id], options);
  const proposalId = await createProposal(
    stack,
    provider,
    request,
    { message: 'A bench proposal.', amount: 1200, currency: 'USD' },
    options,
  );
  const path = `${requestPath(request.id)}/proposals/${encodeURIComponent(proposalId)}`;
  await callJson(
    'decline the proposal',
    `${stack.url}${path}/decline`,
    {
      method: 'POST',
      headers: requestHeaders(stack, request),
      body: { reason: 'Another proposal fits better.' },
      expect: 200,
    },
    ctx.signal,
  );
  const proposal = await callJson(
    'read the proposal',
    `${stack.url}${path}`,
    { method: 'GET', headers: requestHeaders(stack, request), expect: 200 },
    ctx.signal,
  );
  return { provider, request, proposal };
}

/** The declined proposal a `proposal.declined` event of the scenario carries. */
const declinedAs = <P extends object>(proposal: P, id: string) => ({
  ...proposal,
  id,
  decline_reason: 'Another proposal fits better.',
});

/**
 * Events to mails: `proposal.declined` events published at {@link MAIL_IN_FLIGHT} at once (a
 * closed loop: each event's mail accepted by the SMTP server lets the next one go, counted from
 * Mailpit's count of mails taken); latency from each publish to its mail's `sent_at`.
 */
export function mailDeliveries(stack: Fixture<GatewayStack>): Scenario {
  return {
    name: 'mail-deliveries',
    connections: MAIL_IN_FLIGHT,
    description: `proposal.declined events published straight onto JetStream, ${MAIL_IN_FLIGHT} mails in flight, each one mail to a provider through the notifications service to the stack's Mailpit; p50/p99 from the publish to the SMTP server's acceptance (the service's sent_at); closed loop`,
    uses: [stack],
    async setup(ctx) {
      const gateway = await ctx.use(stack);
      const { provider, request, proposal } = await declinedProposal(gateway, ctx);
      const nc = await connect(
        natsConnectionOptions({
          url: gateway.natsUrl,
          user: gateway.natsUser,
          password: gateway.natsPassword,
          name: 'bench-mail-deliveries',
        }),
      );
      ctx.teardown(() => nc.close());
      const js = jetstream(nc);
      const mongo = await MongoClient.connect(gateway.mongoUrl, {
        serverSelectionTimeoutMS: 10_000,
      });
      ctx.teardown(() => mongo.close());
      const mailLog = mongo
        .db('handoff_notifications')
        .collection<{ _id: string; status: string; sent_at: Date | null }>('mail_log');
      const mailpit = mailpitClient(gateway.mailUrl);
      const accepted = async () => (await mailpit.info()).RuntimeStats.SMTPAccepted;

      /** Publishes one event; answers its mail's log key and when it was published. */
      const publish = async () => {
        const id = newId('prp');
        const envelope: EventEnvelope = {
          id: newId('evt'),
          type: 'proposal.declined',
          timestamp: new Date().toISOString(),
          livemode: true,
          data: { request_id: request.id, sequence: 1, object: declinedAs(proposal, id) },
        };
        const headers = natsHeaders();
        headers.set(EVENT_OWNER_HEADER, gateway.agent.integration_id);
        const at = Date.now();
        await js.publish(subjects.event(envelope.type), JSON.stringify(envelope), {
          msgID: envelope.id,
          headers,
        });
        return { key: `proposal:${id}:declined|${provider.id}|proposal_decided`, at };
      };

      // Warm-up: one mail through every step (the provider's cache, the pool's connections).
      const before = await accepted();
      await Promise.all(Array.from({ length: MAIL_IN_FLIGHT }, publish));
      const warmDeadline = Date.now() + DRAIN_TIMEOUT_MS;
      while ((await accepted()) - before < MAIL_IN_FLIGHT) {
        if (Date.now() > warmDeadline) throw new Error('the warm-up mails did not arrive');
        await sleep(POLL_MS);
      }

      // The run's state: what was published (each mail's log key and publish time), and how
      // many mails the server took since the run began.
      let stopping = false;
      let loops: Promise<void>[] = [];
      let poller: Promise<void> = Promise.resolve();
      let sink: Measurement | undefined;
      let published: { key: string; at: number }[] = [];
      let tickets = 0;
      let taken = 0;
      const load: ObservedLoad = {
        kind: 'observed',
        start(measurement, options) {
          sink = measurement;
          stopping = false;
          published = [];
          tickets = 0;
          taken = 0;
          const base = accepted();
          // Counts what the server took, until the run stops and every published mail is in
          // (or the drain's time is up).
          poller = (async () => {
            const from = await base;
            let drainUntil = Infinity;
            while (!stopping || (taken < tickets && Date.now() < drainUntil)) {
              if (stopping && drainUntil === Infinity) drainUntil = Date.now() + DRAIN_TIMEOUT_MS;
              taken = (await accepted()) - from;
              await sleep(POLL_MS);
            }
          })();
          const loop = async () => {
            await base;
            while (!stopping && !options.signal?.aborted) {
              tickets += 1;
              const ticket = tickets;
              try {
                published.push(await publish());
              } catch (error) {
                measurement.errors += 1;
                measurement.firstError ??= `publish: ${describeError(error)}`;
                await sleep(POLL_MS);
                continue;
              }
              // Closed loop: the next event once as many mails were taken as were published.
              while (taken < ticket && !stopping && !options.signal?.aborted) await sleep(POLL_MS);
            }
          };
          loops = Array.from({ length: options.connections }, loop);
        },
        async stop() {
          stopping = true;
          await Promise.all(loops);
          await poller;
          if (!sink) return;
          // Each mail's latency, from its log entry: the service's record of the acceptance.
          for (const { key, at } of published) {
            const entry = await mailLog.findOne({ _id: key });
            if (entry?.status === 'sent' && entry.sent_at) {
              sink.ok += 1;
              recordNs(sink, (entry.sent_at.getTime() - at) * NS_PER_MS);
            } else {
              sink.errors += 1;
              sink.firstError ??= `no sent mail for ${key} (${entry?.status ?? 'no entry'})`;
            }
          }
        },
      };
      return load;
    },
  };
}
