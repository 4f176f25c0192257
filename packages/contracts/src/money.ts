import { z } from 'zod';

/** ISO 4217 codes that this runtime knows, with their minor-unit exponent (ICU's data). */
const CURRENCIES: ReadonlyMap<string, number> = new Map(
  Intl.supportedValuesOf('currency').map((code) => [
    code,
    new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits ?? 2,
  ]),
);

export const DEFAULT_CURRENCY = 'USD';

export function currencyExponent(code: string): number | undefined {
  return CURRENCIES.get(code);
}

const CODES = [...CURRENCIES.keys()] as [string, ...string[]];

/** An ISO 4217 code that this runtime knows, listed in the schema so clients can see them all. */
export const CurrencyCode = z.enum(CODES, {
  error: 'not an ISO 4217 currency code (e.g. USD, EUR, JPY)',
});

/** Largest amount in minor units that stays an exact integer in a double. */
const MAX_MINOR = Number.MAX_SAFE_INTEGER;

/** Major units (wire) → integer minor units (storage); undefined when the precision is too fine. */
export function toMinorUnits(amount: number, currency: string): number | undefined {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) return undefined;
  const scaled = amount * 10 ** exponent;
  const minor = Math.round(scaled);
  if (
    Math.abs(scaled - minor) > 1e-6 * Math.max(1, Math.abs(scaled)) ||
    Math.abs(minor) > MAX_MINOR
  ) {
    return undefined;
  }
  return minor;
}

export function toMajorUnits(minor: number, currency: string): number {
  const exponent = currencyExponent(currency) ?? 2;
  return Number((minor / 10 ** exponent).toFixed(exponent));
}
