import { toMajorUnits } from '@handoff/contracts';

// How the API views show stored values: times as ISO strings, money in major units.

export const iso = (d: Date | null) => d?.toISOString() ?? null;
export const major = (minor: number | null, currency: string | null) =>
  minor === null || currency === null ? null : toMajorUnits(minor, currency);
