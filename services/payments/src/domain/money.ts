import { BusError } from '@handoff/bus';
import { currencyExponent, toMinorUnits } from '@handoff/contracts';

function decimalsAllowed(currency: string, exponent: number): string {
  return exponent === 0
    ? `${currency} has no minor unit, so the amount must be a whole number`
    : `${currency} allows at most ${exponent} decimal place${exponent === 1 ? '' : 's'}`;
}

/**
 * The amount in integer minor units. The gateway checks precision too, but this is the last
 * line before storage: a float must never reach the database.
 */
export function minorUnits(amount: number, currency: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) {
    throw new BusError('validation_failed', `${currency} is not a known currency.`, {
      details: {
        errors: [{ pointer: '/currency', code: 'invalid_currency', detail: 'unknown currency' }],
      },
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
        errors: [{ pointer: '/amount', code: 'invalid_precision', detail }],
        currency,
        max_decimals: exponent,
      },
    });
  }
  return minor;
}
