// `handoff.emails`: what became of each hand-over of a mail, by the mail's kind. Both labels come
// from lists declared in code, so the family has at most |MAIL_KINDS| × |EMAIL_OUTCOMES| series.
import { MAIL_KINDS, type MailKind } from '@handoff/contracts';
import { lazyCounter, type Attributes } from '@handoff/observability';

/**
 * `sent`: the SMTP server took it. `failed`: it will never go (refused for good, or a sign-in
 * link that expired first). `retried`: not taken now (a 4xx, no connection, our sender refused);
 * it is handed over again later. `suppressed`: held back unsent, its address bouncing.
 */
export const EMAIL_OUTCOMES = ['sent', 'failed', 'retried', 'suppressed'] as const;
export type EmailOutcome = (typeof EMAIL_OUTCOMES)[number];

/** The label of a kind missing from MAIL_KINDS, as OpenTelemetry names an unknown value. */
const OTHER_KIND = '_OTHER';

const emails = lazyCounter(
  'handoff.emails',
  'Mails handed to the SMTP server, or held back, by what became of them.',
  '{email}',
);

/** Every label set of a kind, made once: counting allocates nothing. */
const setsOf = (kind: string): Readonly<Record<EmailOutcome, Attributes>> => ({
  sent: { kind, outcome: 'sent' },
  failed: { kind, outcome: 'failed' },
  retried: { kind, outcome: 'retried' },
  suppressed: { kind, outcome: 'suppressed' },
});
const attributeSets = new Map([...MAIL_KINDS, OTHER_KIND].map((kind) => [kind, setsOf(kind)]));

/**
 * Makes the series of every declared kind and outcome exist at 0 from the start (not `_OTHER`),
 * so a scrape shows them before the first mail and `increase()` sees the first one. Called once
 * the meter provider is named.
 */
export function countFromZero(): void {
  for (const kind of MAIL_KINDS) {
    const byOutcome = attributeSets.get(kind);
    if (byOutcome === undefined) continue;
    for (const outcome of EMAIL_OUTCOMES) emails().add(0, byOutcome[outcome]);
  }
}

/** Counts one hand-over of a mail of `kind` (or its holding back). */
export function countEmail(kind: MailKind, outcome: EmailOutcome): void {
  const byOutcome = attributeSets.get(kind) ?? attributeSets.get(OTHER_KIND);
  if (byOutcome) emails().add(1, byOutcome[outcome]);
}
