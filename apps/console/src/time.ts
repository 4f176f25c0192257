import { useEffect, useState } from 'preact/hooks';

// Durations as people say them ("1 h 20 min", "2 d ago"), and a clock that keeps the time left
// of a deadline true while a screen stays open.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A length of time in its two largest units: `2 d 4 h`, `1 h 20 min`, `5 min 10 s`, `40 s`. */
export function span(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return `${Math.max(1, Math.floor(abs / 1000))} s`;
  const [big, bigUnit, small, smallUnit] =
    abs < HOUR
      ? [MINUTE, 'min', 1000, 's']
      : abs < DAY
        ? [HOUR, 'h', MINUTE, 'min']
        : [DAY, 'd', HOUR, 'h'];
  const rest = Math.floor((abs % big) / small);
  return `${Math.floor(abs / big)} ${bigUnit}${rest > 0 ? ` ${rest} ${smallUnit}` : ''}`;
}

/** How long ago `iso` was: `2 h ago`. */
export const ago = (iso: string, now: number): string =>
  Date.parse(iso) > now - 30_000 ? 'just now' : `${span(now - Date.parse(iso))} ago`;

/** What is left of an answer's deadline: `answers within 1 h 20 min`, or `lapsed`. */
export const answerWithin = (respondBy: string, now: number): string => {
  const left = Date.parse(respondBy) - now;
  return left > 0 ? `answers within ${span(left)}` : 'lapsed';
};

/** A window given in seconds (a category's response window): `2 h`, `1 min 30 s`. */
export const seconds = (value: number): string => span(value * 1000);

/** The time now, refreshed every `everyMs` while the component is shown. */
export function useNow(everyMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
