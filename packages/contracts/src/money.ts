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

const KNOWN_CODE = z.enum(CODES, {
  error: 'not an ISO 4217 currency code (three letters, e.g. USD, EUR, JPY)',
});

/**
 * An ISO 4217 code that this runtime knows, listed in the schema so clients can see them all.
 * Letters are taken in any case (`eur` is `EUR`) and the code is kept and returned upper case.
 */
export const CurrencyCode = z
  .preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), KNOWN_CODE)
  .meta({
    description:
      'ISO 4217 currency code; letters in any case are accepted (`eur` is `EUR`) and the code ' +
      'is stored and returned upper case.',
  });

/** Largest amount in minor units that stays an exact integer in a double. */
const MAX_MINOR = Number.MAX_SAFE_INTEGER;

/**
 * Digits after the decimal point of `value` as JSON writes it (the shortest form that reads back
 * as the same double), which is how JSON Schema's `multipleOf` judges it: 0.07 has two, 1e-7 has
 * seven, 0.30000000000000004 has seventeen.
 */
export function decimalPlaces(value: number): number {
  const [digits = '', exponent = '0'] = String(Math.abs(value)).split('e');
  const fraction = digits.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

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

/**
 * Whether `amount` has at most as many decimal places as `currency` has (2 for USD, 0 for JPY, 3
 * for KWD), exactly as {@link amountPrecisionSchema} says, and converts to minor units.
 */
export function fitsCurrency(amount: number, currency: string): boolean {
  const exponent = currencyExponent(currency);
  return (
    exponent !== undefined &&
    Number.isFinite(amount) &&
    decimalPlaces(amount) <= exponent &&
    toMinorUnits(amount, currency) !== undefined
  );
}

/**
 * The precision rule of {@link fitsCurrency} as JSON Schema, for an object with `amount` and an
 * optional `currency` ({@link DEFAULT_CURRENCY} when absent): `amount` is a multiple of the
 * currency's smallest unit, e.g. 0.01 for USD, 1 for JPY, 0.001 for KWD. `itemsOf` names an array
 * property whose items' `amount` follows the same rule (a proposal's milestone plan).
 */
export function amountPrecisionSchema(
  options: { itemsOf?: string } = {},
): Record<string, unknown>[] {
  const byExponent = new Map<number, string[]>();
  for (const [code, exponent] of CURRENCIES) {
    byExponent.set(exponent, [...(byExponent.get(exponent) ?? []), code]);
  }
  const fallback = currencyExponent(DEFAULT_CURRENCY) ?? 2;
  // With `itemsOf`, the `amount` of each item of that array property is in the same currency.
  const unit = (exponent: number) => {
    const amount = { multipleOf: Number(`1e-${exponent}`) };
    return {
      properties: {
        amount,
        ...(options.itemsOf ? { [options.itemsOf]: { items: { properties: { amount } } } } : {}),
      },
    };
  };
  const given = (codes: string[]) => ({
    properties: { currency: { enum: codes } },
    required: ['currency'],
  });
  const others = [...byExponent]
    .filter(([exponent]) => exponent !== fallback)
    .sort(([a], [b]) => a - b);
  return [
    ...others.map(([exponent, codes]) => ({ if: given(codes), then: unit(exponent) })),
    { if: given(others.flatMap(([, codes]) => codes)), else: unit(fallback) },
  ];
}

export function toMajorUnits(minor: number, currency: string): number {
  const exponent = currencyExponent(currency) ?? 2;
  return Number((minor / 10 ** exponent).toFixed(exponent));
}
