import { BusError } from '@handoff/bus';
import { currencyExponent, toMinorUnits } from '@handoff/contracts';

function decimalsAllowed(currency: string, exponent: number): string {
  return exponent === 0
    ? `${currency} has no minor unit, so the amount must be a whole number`
    : `${currency} allows at most ${exponent} decimal place${exponent === 1 ? '' : 's'}`;
}

/**
 * The amount in integer minor units of `currency`, or `validation_failed` pointing at the field
 * (`pointer`, `/amount` unless told). The gateway checks precision too, but this is the last line
 * before storage in every service that keeps money: a float must never reach the database.
 */
export function minorUnits(amount: number, currency: string, pointer = '/amount'): number {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) {
    const detail = `${currency} is not a known currency.`;
    throw new BusError('validation_failed', detail, {
      details: { errors: [{ pointer: '/currency', code: 'invalid_currency', detail }] },
    });
  }
  const minor = toMinorUnits(amount, currency);
  // A positive amount far below the smallest unit rounds to 0 within toMinorUnits' tolerance.
  if (minor === undefined || minor < 1) {
    const detail =
      minor === undefined
        ? `amount ${amount} is too precise: ${decimalsAllowed(currency, exponent)}.`
        : `amount ${amount} is below the smallest unit of ${currency} (${10 ** -exponent}).`;
    throw new BusError('validation_failed', detail, {
      details: {
        errors: [{ pointer, code: 'invalid_precision', detail }],
        currency,
        max_decimals: exponent,
      },
    });
  }
  return minor;
}
