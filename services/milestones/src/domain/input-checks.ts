import { trimmedText } from '@handoff/contracts';
import { invalid } from './refusals.ts';

// Checks of the input that the bus schemas cannot make.

/** Free text the bus carries as a plain string: trimmed, not blank, at most `max` characters. */
export function text(value: string, max: number, pointer: string): string {
  const parsed = trimmedText(max).safeParse(value);
  if (parsed.success) return parsed.data;
  throw invalid(pointer, 'invalid_text', parsed.error.issues[0]?.message ?? 'invalid text');
}

/** Amounts of a job's work are in the job's currency. */
export function jobCurrency(given: string | undefined, job: { currency: string }): string {
  if (given !== undefined && given !== job.currency) {
    throw invalid(
      '/currency',
      'currency_mismatch',
      `the job is in ${job.currency}; give the amount in ${job.currency}.`,
    );
  }
  return job.currency;
}
