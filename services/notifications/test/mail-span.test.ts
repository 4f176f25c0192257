import { afterAll, describe, expect, it } from '@jest/globals';
import { newId } from '@handoff/contracts';
import { SpanKind, SpanStatusCode, stopTelemetry, withSpan } from '@handoff/observability';
import { collectSpans, testServers } from '@handoff/testkit';
import { smtpSender } from '../src/adapters/smtp.ts';
import { handOverAttributes, inMailSpan } from '../src/handlers/mail-span.ts';

const ended = collectSpans('mail-span-test');
afterAll(() => stopTelemetry());

describe("a mail hand-over span's attributes", () => {
  it('say what became of it, never to whom', () => {
    expect(handOverAttributes({ outcome: 'accepted' })).toEqual({
      'handoff.mail.outcome': 'accepted',
    });
    expect(handOverAttributes({ outcome: 'refused', code: 550, reason: 'no such user' })).toEqual({
      'handoff.mail.outcome': 'refused',
      'handoff.smtp.code': 550,
      'error.type': 'refused',
    });
    expect(handOverAttributes({ outcome: 'deferred', code: null, reason: 'ECONNREFUSED' })).toEqual(
      { 'handoff.mail.outcome': 'deferred', 'error.type': 'deferred' },
    );
  });
});

describe('a hand-over to a real SMTP server while spans are recorded', () => {
  const smtp = smtpSender({
    SMTP_URL: testServers().smtpUrl,
    SMTP_REQUIRE_TLS: false,
    SMTP_TIMEOUT_MS: 10_000,
    SMTP_POOL_SIZE: 1,
    MAIL_FROM: 'Handoff <noreply@handoff.local>',
  });
  afterAll(() => smtp.close());

  it("is a client span under the event's handling", async () => {
    const eventId = newId('evt');
    const result = await withSpan('handling', {}, () =>
      inMailSpan({ eventId, kind: 'staff_queue' }, () =>
        smtp.send({
          to: 'staff@handoff.local',
          toName: null,
          subject: 'A trace test',
          text: 'Hello',
          html: '<p>Hello</p>',
          messageId: `<${eventId}@handoff.local>`,
          headers: {},
        }),
      ),
    );
    expect(result).toEqual({ outcome: 'accepted' });
    const handling = ended.find((span) => span.name === 'handling');
    const span = ended.find((s) => s.attributes['handoff.event.id'] === eventId);
    expect(span?.name).toBe('smtp send');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.parentSpanContext?.spanId).toBe(handling?.spanContext().spanId);
    expect(span?.attributes).toEqual({
      'handoff.event.id': eventId,
      'handoff.mail.kind': 'staff_queue',
      'handoff.mail.outcome': 'accepted',
    });
    expect(JSON.stringify(span?.attributes)).not.toContain('staff@handoff.local');
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });
});
