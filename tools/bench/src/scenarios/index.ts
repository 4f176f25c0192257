// The registry: every scenario `npm run bench` runs, in order, and the ratios it reports.
// A new endpoint is one more entry here (and a file next to this one); one on the gateway takes
// the shared stack (with its onboarded agent key and a staff token) from `stack` rather than
// starting its own.
import { gatewayStack } from '../fixtures/gateway-stack.ts';
import { formatRatio } from '../format.ts';
import { DEFAULT_GROWTH_SIZES, growthRatios, type PreloadRecord } from '../growth.ts';
import type { RatioSpec, Scenario } from '../types.ts';
import { expressBare } from './express-bare.ts';
import {
  FILE_CONNECTIONS,
  fileDownload1Mib,
  fileUpload1Mib,
  gridfsRead1Mib,
  gridfsWrite1Mib,
} from './file-transfer.ts';
import { filesStack, fileUploadRss } from './file-upload-rss.ts';
import { gatewayAuthenticated, gatewayPublic } from './gateway-auth.ts';
import { milestoneApproval, providerProposal } from './gateway-engagement.ts';
import { gatewayReadyz } from './gateway-readyz.ts';
import { a2aSend, mcpTaskCreate } from './agent-protocols.ts';
import { createToWebhook } from './create-to-webhook.ts';
import { gatewayReadCold } from './gateway-read-cold.ts';
import { gatewayCreate, gatewayMessage, gatewayRead } from './gateway-requests.ts';
import { growthScenarios } from './growth.ts';
import { longPollAnswer, longPollHeld } from './long-poll.ts';
import { MAIL_IN_FLIGHT, mailDeliveries, rawSmtpSend } from './mail.ts';
import { mongoInsertOne } from './mongo-insert-one.ts';
import { natsRequestReply } from './nats-request-reply.ts';
import { rawHttpPost } from './raw-http-post.ts';
import { routing, routingStack } from './routing.ts';
import { stackFindOne } from './stack-find-one.ts';
import { stackInsertOne } from './stack-insert-one.ts';
import { TELEMETRY_RATIOS, telemetryScenarios } from './telemetry-cost.ts';
import { WEBHOOK_ENDPOINT_COUNTS, webhookDeliveries } from './webhook-deliveries.ts';
import {
  LATENCY_ENDPOINT_COUNTS,
  LATENCY_TARGET_MS,
  latencyScenarioName,
  peakScenarioName,
  webhookLatency,
} from './webhook-latency.ts';

export interface RegistryOptions {
  /** LOG_LEVEL of the services in the stack scenarios. */
  logLevel: string;
  /** The growth scenario's sizes (BENCH_GROWTH_SIZES). */
  growthSizes?: readonly number[];
  /** Where the growth scenario records its preloads, for the report. */
  preloads?: PreloadRecord[];
  /** The webhook latency scenarios' deliveries per second, instead of half the peak. */
  webhookRate?: number | null;
}

export function scenarios(options: RegistryOptions): Scenario[] {
  // Started by the first scenario that uses it, stopped after the last one.
  const stack = gatewayStack(options.logLevel);
  const stackR3 = gatewayStack(options.logLevel, { natsNodes: 3 });
  const stackRouting = routingStack(options.logLevel);
  const stackFiles = filesStack(options.logLevel);
  return [
    expressBare,
    natsRequestReply,
    mongoInsertOne,
    rawHttpPost,
    gatewayReadyz(stack, options.logLevel),
    gatewayPublic(stack, options.logLevel),
    gatewayAuthenticated(stack, options.logLevel),
    stackInsertOne(stack),
    // The cold read's floor, beside the writes' one.
    stackFindOne(stack),
    gatewayCreate(stack, options.logLevel),
    // Right after gateway-create, on the same stack and database size: their ratios to it.
    a2aSend(stack, options.logLevel),
    mcpTaskCreate(stack, options.logLevel),
    // The create again, to its integration's webhook.
    createToWebhook(stack, options.logLevel),
    gatewayRead(stack, options.logLevel),
    gatewayReadCold(stack, options.logLevel),
    gatewayMessage(stack, options.logLevel),
    providerProposal(stack, options.logLevel),
    milestoneApproval(stack, options.logLevel),
    longPollAnswer(stack, options.logLevel),
    longPollHeld(stack, options.logLevel),
    // Mail, before the webhook scenarios register endpoints its events would be delivered to.
    rawSmtpSend(stack),
    mailDeliveries(stack),
    // Last: the events of the scenarios above are still being logged by the dispatcher. Each
    // latency scenario right after the peak it takes half of.
    ...WEBHOOK_ENDPOINT_COUNTS.flatMap((endpoints) => [
      webhookDeliveries(stack, endpoints, options.logLevel),
      ...(LATENCY_ENDPOINT_COUNTS.some((size) => size === endpoints)
        ? [webhookLatency(stack, endpoints, options.logLevel, options.webhookRate ?? null)]
        : []),
    ]),
    // One endpoint whose receiver takes 20 ms to answer: what the adaptive sending slots give a
    // receiver that keeps up but is not instant (fixed slots would cap it at slots ÷ 20 ms).
    webhookDeliveries(stack, 1, options.logLevel, {
      suffix: `-slow${SLOW_RECEIVER_MS}`,
      answerDelayMs: SLOW_RECEIVER_MS,
    }),
    // Files, each right after its raw baseline; last on the shared stack, since they leave
    // hundreds of MiB of chunks in conversation's database (its own collection, same server).
    gridfsWrite1Mib(stack),
    fileUpload1Mib(stack, options.logLevel),
    gridfsRead1Mib(stack),
    fileDownload1Mib(stack, options.logLevel),
    // Only when BENCH_ONLY names it: it adds 100k documents to every collection it measures, and
    // would make every scenario after it measure a grown database.
    ...growthScenarios(
      stack,
      options.growthSizes ?? DEFAULT_GROWTH_SIZES,
      options.logLevel,
      options.preloads ?? [],
    ),
    // Once the first stack is gone: gateway-create and webhook-deliveries-1 on a stack with
    // metrics and tracing off, then on one with both on (scraped, exported to Jaeger).
    ...telemetryScenarios(options.logLevel),
    // Once the first stack is gone, on a stack of its own: 1,000 providers in 20 categories.
    routing(stackRouting, options.logLevel),
    // On a stack of its own: 20 uploads of 50 MiB measure the gateway's memory, nothing else.
    fileUploadRss(stackFiles, options.logLevel),
    // Last, once the first stack is gone: the same writes on a stack of its own whose NATS is a
    // 3-node cluster with 3 replicas of every stream, as in production (R3 against R1).
    gatewayCreate(stackR3, options.logLevel, '-r3'),
    webhookDeliveries(stackR3, 1, options.logLevel, { suffix: '-r3' }),
  ];
}

/**
 * The scenarios BENCH_ONLY picks, in registry order: without it every scenario outside a group;
 * with it those it names and every scenario of a group it names. Throws on a name that is
 * neither, listing what it knows.
 */
export function selectScenarios(all: readonly Scenario[], only: readonly string[] | null) {
  const groups = [...new Set(all.flatMap((s) => (s.group === undefined ? [] : [s.group])))];
  if (only === null) return all.filter((s) => s.group === undefined);
  const unknown = only.filter(
    (name) => !all.some((s) => s.name === name) && !groups.includes(name),
  );
  if (unknown.length > 0) {
    const known = [...all.filter((s) => s.group === undefined).map((s) => s.name), ...groups];
    throw new Error(
      `BENCH_ONLY names unknown scenarios: ${unknown.join(', ')} (known: ${known.join(', ')}, or one scenario of a group)`,
    );
  }
  return all.filter(
    (s) => only.includes(s.name) || (s.group !== undefined && only.includes(s.group)),
  );
}

/**
 * Each API scenario (the agent's, and the engagement's of the provider and the customer's
 * agent) against the floor (bare express), against the same gateway pipeline without bus calls
 * (gateway-public), and against one bare bus round trip (nats-request-reply), noting the bus calls
 * it makes: its p50 there reads as "so many round trips' worth".
 */
const AGENT_API: readonly { subject: string; busCalls: string; writes?: string }[] = [
  {
    subject: 'gateway-create',
    busCalls: '1 bus call (intake), a sequence KV create and a JetStream publish inside it',
    writes:
      "an insert (grouped with concurrent creates; its event stays in it, so no outbox update), and the dispatcher's feed entry (batched)",
  },
  {
    subject: 'gateway-read',
    busCalls:
      "the replica's request cache after the cached token check; 3 bus calls at once on a miss",
  },
  {
    subject: 'gateway-message',
    busCalls:
      "1 bus call (conversation), a sequence KV update and a publish inside it; the status from the replica's cache",
    writes:
      "an insert (grouped with concurrent messages; its event stays in it, so no outbox update), and the dispatcher's feed entry (batched)",
  },
  {
    subject: 'provider-proposal',
    busCalls:
      '2 bus calls in turn (intake: the request and the provider, both from its caches; milestones), a sequence KV update and a publish inside the 2nd',
    writes:
      "no read in intake (a find at the request's first check, and after each of its events); a lookup of the request's slot (no document unless accepted) and an insert (grouped with concurrent creations; its event stays in it) in milestones; the dispatcher's feed entry",
  },
  {
    subject: 'milestone-approval',
    busCalls: '1 bus call (milestones), a sequence KV update and a publish inside it',
    writes:
      "a find and a compare-and-set update (its event stays in the milestone), and the dispatcher's feed entry (batched)",
  },
];

/** How long the slow receiver of `webhook-deliveries-1-slow…` takes to answer. */
const SLOW_RECEIVER_MS = 20;

/** Issue 15: deliveries per second at least this share of raw-http-post's, at 1 and 100 endpoints. */
const DELIVERIES_TARGET = 0.1;

/** The ratios of a run: {@link RATIOS}, and the growth scenario's at its sizes. */
export function ratiosFor(growthSizes: readonly number[]): RatioSpec[] {
  return [...RATIOS, ...growthRatios(growthSizes)];
}

export const RATIOS: readonly RatioSpec[] = [
  { subject: 'gateway-readyz', baseline: 'express-bare' },
  { subject: 'gateway-authenticated', baseline: 'gateway-public' },
  {
    subject: 'long-poll-held',
    baseline: 'gateway-authenticated',
    note: 'the same call while the gateway holds its most waiting long-polls',
  },
  ...AGENT_API.flatMap(({ subject, busCalls, writes }) => [
    { subject, baseline: 'express-bare' },
    { subject, baseline: 'gateway-public' },
    { subject, baseline: 'nats-request-reply', note: busCalls },
    // A write against the raw insert of the same database server, same connections.
    ...(writes === undefined ? [] : [{ subject, baseline: 'stack-insert-one', note: writes }]),
  ]),
  ...['a2a-send', 'mcp-task-create'].map((subject) => ({
    subject,
    baseline: 'gateway-create',
    note: "the same create through an agent protocol's translation; issue 34's target: ≥ 0.8x",
  })),
  {
    subject: 'create-to-webhook',
    baseline: 'stack-insert-one',
    note: "creates whose request.created reached the integration's one endpoint, per second, against raw inserts; latency from the create to the webhook's receipt; the issue's target: ≥ 0.5x, p99 ≤ 50 ms",
  },
  {
    subject: 'gateway-read-cold',
    baseline: 'stack-find-one',
    note: "a read the gateway's request cache does not hold, against one findOne by _id of the same server, both a different document each call; the issue's target: ≥ 0.5x",
  },
  { subject: 'gateway-read-cold', baseline: 'express-bare' },
  {
    subject: 'mail-deliveries',
    baseline: 'raw-smtp-send',
    note: `events to mails (the notifications service's read of the request, its mail log's two writes, the hand-over) against nodemailer alone to the same Mailpit, ${MAIL_IN_FLIGHT} at once; its latency runs from the publish`,
  },
  {
    subject: 'routing',
    baseline: 'gateway-create',
    note: "offers/s against creates/s at the same 10 connections; latency from the create to its offer's request.updated on the bus, against the create's answer",
  },
  {
    subject: 'file-upload-1mib',
    baseline: 'gridfs-write-1mib',
    note: `1 MiB each, so req/s is MiB/s; begin, 5 chunk bus calls (3 in flight) and a commit to conversation, against the driver's GridFS writes to the same database, ${FILE_CONNECTIONS} at once; issue 35's target: ≥ 0.5x`,
  },
  {
    subject: 'file-download-1mib',
    baseline: 'gridfs-read-1mib',
    note: `1 MiB each, so req/s is MiB/s; the record and 5 chunk bus calls (1 read ahead) from conversation, against the driver's GridFS reads of the same database, ${FILE_CONNECTIONS} at once; issue 35's target: ≥ 0.5x`,
  },
  {
    subject: 'gateway-create-r3',
    baseline: 'gateway-create',
    note: 'streams with 3 replicas on a 3-node cluster against 1 on one server',
  },
  {
    subject: 'webhook-deliveries-1-r3',
    baseline: 'webhook-deliveries-1',
    note: 'streams with 3 replicas on a 3-node cluster against 1 on one server',
  },
  ...TELEMETRY_RATIOS,
  ...WEBHOOK_ENDPOINT_COUNTS.map((endpoints) => ({
    subject: peakScenarioName(endpoints),
    baseline: 'raw-http-post',
    note:
      `the dispatcher's peak to ${endpoints} endpoint(s); latency from the publish, not one POST` +
      (LATENCY_ENDPOINT_COUNTS.some((size) => size === endpoints)
        ? `; issue 15's target: req/s ≥ ${formatRatio(DELIVERIES_TARGET)}`
        : ''),
  })),
  {
    subject: `webhook-deliveries-1-slow${SLOW_RECEIVER_MS}`,
    baseline: peakScenarioName(1),
    note: `one endpoint answering in ${SLOW_RECEIVER_MS} ms against one answering at once; the slots grow from WEBHOOK_ENDPOINT_CONCURRENCY toward WEBHOOK_ENDPOINT_CONCURRENCY_MAX while it keeps up`,
  },
  // The latency at half the peak against the peak's: what the queue at the peak adds.
  ...LATENCY_ENDPOINT_COUNTS.map((endpoints) => ({
    subject: latencyScenarioName(endpoints),
    baseline: peakScenarioName(endpoints),
    note: `at half the rate; issue 15's target: p50 ≤ ${LATENCY_TARGET_MS.p50} ms, p99 ≤ ${LATENCY_TARGET_MS.p99} ms`,
  })),
];
