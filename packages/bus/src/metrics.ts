import { durationHistogram, type Attributes, type Histogram } from '@handoff/observability';
import { BusError } from './errors.ts';

const clientDuration = durationHistogram(
  'messaging.client.operation.duration',
  'Bus requests this process made, from the send to the reply (or the failure).',
);
const processDuration = durationHistogram(
  'messaging.process.duration',
  'Bus requests this process served, from receipt to the reply.',
);

/**
 * Subjects are `handoff.<service>.<operation>`, declared in code, so they make a bounded label;
 * past this many (a caller building subjects from data), the rest share one value.
 */
const MAX_SUBJECTS = 512;
const OTHER_SUBJECT = '_other';

/**
 * The measurements of one subject, one side: its attribute sets are made once (and once per error
 * code), so that recording allocates nothing beyond the histogram's own work.
 */
export class SubjectTiming {
  private readonly ok: Attributes;
  private readonly failures = new Map<string, Attributes>();
  private readonly histogram: () => Histogram;

  constructor(histogram: () => Histogram, operation: 'request' | 'process', subject: string) {
    this.histogram = histogram;
    this.ok = {
      'messaging.system': 'nats',
      'messaging.operation.name': operation,
      'messaging.destination.name': subject,
    };
  }

  succeeded(startedMs: number): void {
    this.histogram().record(secondsSince(startedMs), this.ok);
  }

  /** `error.type` is the catalogue's code (bounded); anything else is `_OTHER`, as OTel says. */
  failed(startedMs: number, error: unknown): void {
    const type = error instanceof BusError ? error.code : '_OTHER';
    let attributes = this.failures.get(type);
    if (attributes === undefined) {
      attributes = { ...this.ok, 'error.type': type };
      this.failures.set(type, attributes);
    }
    this.histogram().record(secondsSince(startedMs), attributes);
  }
}

const clientTimings = new Map<string, SubjectTiming>();

/** The caller's side of `subject` (`messaging.client.operation.duration`). */
export function requestTiming(subject: string): SubjectTiming {
  const known = clientTimings.get(subject);
  if (known) return known;
  const label = clientTimings.size < MAX_SUBJECTS ? subject : OTHER_SUBJECT;
  const timing = clientTimings.get(label) ?? new SubjectTiming(clientDuration, 'request', label);
  clientTimings.set(label, timing);
  return timing;
}

/** The serving side of `subject` (`messaging.process.duration`), made once per endpoint. */
export function processTiming(subject: string): SubjectTiming {
  return new SubjectTiming(processDuration, 'process', subject);
}

const secondsSince = (startedMs: number) => (performance.now() - startedMs) / 1000;
