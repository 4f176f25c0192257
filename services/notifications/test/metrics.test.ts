// `handoff_emails_total` on the service's health port: each hand-over of a mail counted by its
// kind and what became of it, on a Mailpit of this file's own (it is refused and stopped here).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAIL_KINDS } from '@handoff/contracts';
import { parsePrometheusText, type PrometheusSample } from '@handoff/observability';
import { eventually, freePort, startMailpit, type Mailpit } from '@handoff/testkit';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMAIL_OUTCOMES } from '../src/handlers/mail-metrics.ts';
import {
  handledTimes,
  messagePosted,
  milestoneApproved,
  proposalDecided,
  routed,
  sendSignIn,
  startStack,
  waitForMails,
  type Stack,
} from './support/stack.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'notify-metrics-'));
let ports: { smtpPort: number; httpPort: number };
let mailpit: Mailpit;
let stack: Stack;

const startOwnMailpit = () =>
  startMailpit({ dataDir, database: join(dataDir, 'mailpit.db'), ...ports });

beforeAll(async () => {
  ports = { smtpPort: await freePort(), httpPort: await freePort() };
  mailpit = await startOwnMailpit();
  // A dead server is noticed in a second, not fifteen.
  stack = await startStack('metrics', { mailpit, env: { SMTP_TIMEOUT_MS: '2000' } });
});

afterAll(async () => {
  await stack.stop();
  await mailpit.stop();
});

const scrape = async (): Promise<PrometheusSample[]> => {
  const res = await fetch(`http://127.0.0.1:${stack.notifications.healthPort}/metrics`);
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
};

const emails = async (kind: string, outcome: string): Promise<number> =>
  (await scrape()).find(
    (s) =>
      s.name === 'handoff_emails_total' && s.labels.kind === kind && s.labels.outcome === outcome,
  )?.value ?? 0;

/** Waits until the count of `kind`/`outcome` is `before + added` or more; answers it. */
const counted = (kind: string, outcome: string, before: number, added = 1) =>
  eventually(
    async () => {
      const now = await emails(kind, outcome);
      return now >= before + added ? now : undefined;
    },
    { timeoutMs: 30_000, what: `${added} more ${kind} mail(s) counted ${outcome}` },
  );

describe('handoff_emails_total', () => {
  it('counts a mail the server took as sent, by its kind', async () => {
    const routedBefore = await emails('request_routed', 'sent');
    const signInBefore = await emails('sign_in', 'sent');
    const { provider } = await routed(stack, 'sent');
    // Mailpit shows the mail a moment before the service hears it was taken.
    expect(await counted('request_routed', 'sent', routedBefore)).toBe(routedBefore + 1);
    await sendSignIn(stack, provider, `hsl_${'m'.repeat(40)}`);
    await waitForMails(stack.mail, provider.email, 2);
    expect(await counted('sign_in', 'sent', signInBefore)).toBe(signInBefore + 1);
  });

  it('counts a refusal for good as failed, and the mail held back after it as suppressed', async () => {
    const { provider, request } = await routed(stack, 'refused');
    const failedBefore = await emails('proposal_decided', 'failed');
    const heldBefore = await emails('milestone_reviewed', 'suppressed');
    await stack.mail.chaos({ Recipient: { ErrorCode: 550, Probability: 100 } });
    try {
      const refused = await proposalDecided(stack, request.id, provider.id, 'declined');
      expect((await handledTimes(stack, refused.id)).mails).toEqual(['failed']);
    } finally {
      await stack.mail.chaos({ Recipient: { ErrorCode: 550, Probability: 0 } });
    }
    expect(await emails('proposal_decided', 'failed')).toBe(failedBefore + 1);
    const held = await milestoneApproved(stack, request.id, provider.id);
    expect((await handledTimes(stack, held.id)).mails).toEqual(['held']);
    expect(await emails('milestone_reviewed', 'suppressed')).toBe(heldBefore + 1);
  });

  it('counts each hand-over to a server nobody answers on as retried, then the one taken as sent', async () => {
    const { provider, request } = await routed(stack, 'outage');
    const retriedBefore = await emails('message_received', 'retried');
    const sentBefore = await emails('message_received', 'sent');
    mailpit.kill();
    try {
      await messagePosted(stack, request.id, 'Anyone there?');
      await counted('message_received', 'retried', retriedBefore);
      expect(await emails('message_received', 'sent')).toBe(sentBefore);
    } finally {
      mailpit = await startOwnMailpit();
    }
    await waitForMails(stack.mail, provider.email, 2, 90_000);
    expect(await counted('message_received', 'sent', sentBefore)).toBe(sentBefore + 1);
  });

  it('labels only kinds and outcomes declared in code, never an id or an address', async () => {
    const samples = (await scrape()).filter((s) => s.name === 'handoff_emails_total');
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      expect(Object.keys(sample.labels).sort()).toEqual(['kind', 'otel_scope_name', 'outcome']);
      expect(sample.labels.otel_scope_name).toBe('handoff');
      expect(MAIL_KINDS).toContain(sample.labels.kind);
      expect(EMAIL_OUTCOMES).toContain(sample.labels.outcome);
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toMatch(/[a-z]+_[0-9a-z]{20,}/);
        expect(value).not.toContain('@');
      }
    }
  });
});
