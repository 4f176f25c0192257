import { currencyExponent, DEFAULT_CURRENCY, fitsCurrency } from '@handoff/contracts';
import { validationFailed, type FieldError } from '../http/errors.ts';

/**
 * 422 with a pointer per amount finer than its currency's smallest unit (the schemas document
 * the rule; zod cannot express it per currency).
 */
export function checkPrecision(
  amounts: readonly { pointer: string; amount: number | undefined }[],
  currency: string | undefined,
): void {
  const code = currency ?? DEFAULT_CURRENCY;
  const errors: FieldError[] = amounts
    .filter(
      (entry): entry is { pointer: string; amount: number } =>
        entry.amount !== undefined && !fitsCurrency(entry.amount, code),
    )
    .map(({ pointer }) => ({
      pointer,
      code: 'invalid_precision',
      detail: `${code} amounts have at most ${currencyExponent(code) ?? 2} decimal places.`,
    }));
  if (errors.length > 0) throw validationFailed(errors);
}

/** `checkPrecision` of a body's one `amount` in its `currency`. */
export const checkAmount = (body: { amount?: number; currency?: string }): void =>
  checkPrecision([{ pointer: '/amount', amount: body.amount }], body.currency);
