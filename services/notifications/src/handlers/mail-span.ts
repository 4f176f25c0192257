// The span of one hand-over of a mail to the SMTP server, in the trace of the event that caused
// it (the events consumer's span is active), so that a call's trace ends in the mails it sent.
// Nothing of it is made while traces are not recorded.
import type { MailKind } from '@handoff/contracts';
import {
  SpanKind,
  SpanStatusCode,
  tracesRecorded,
  withSpan,
  type Attributes,
} from '@handoff/observability';
import type { SendOutcome } from '../adapters/smtp.ts';

/** What the span says of the hand-over once it is answered; never the address or the text. */
export function handOverAttributes(result: SendOutcome): Attributes {
  return {
    'handoff.mail.outcome': result.outcome,
    ...(result.outcome !== 'accepted' && result.code !== null
      ? { 'handoff.smtp.code': result.code }
      : {}),
    ...(result.outcome !== 'accepted' ? { 'error.type': result.outcome } : {}),
  };
}

/**
 * Runs the hand-over `send` of a mail of `kind` in its span, a child of the active context: the
 * event's handling (`eventId`), or the call that asked for the mail (a sign-in link, no event).
 */
export function inMailSpan(
  mail: { eventId?: string; kind: MailKind },
  send: () => Promise<SendOutcome>,
): Promise<SendOutcome> {
  if (!tracesRecorded()) return send();
  return withSpan(
    'smtp send',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'handoff.mail.kind': mail.kind,
        ...(mail.eventId ? { 'handoff.event.id': mail.eventId } : {}),
      },
    },
    async (span) => {
      const result = await send();
      span.setAttributes(handOverAttributes(result));
      if (result.outcome !== 'accepted') span.setStatus({ code: SpanStatusCode.ERROR });
      return result;
    },
  );
}
