// Times in the words a person reads: how long ago, and for a deadline how long is left.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** "3 days", "2 hours", "5 minutes", "less than a minute". */
export function span(ms: number): string {
  const abs = Math.abs(ms);
  if (abs >= 2 * DAY) return plural(Math.round(abs / DAY), 'day');
  if (abs >= 2 * HOUR) return plural(Math.round(abs / HOUR), 'hour');
  if (abs >= HOUR) return plural(Math.round(abs / MINUTE / 60), 'hour');
  if (abs >= MINUTE) return plural(Math.round(abs / MINUTE), 'minute');
  return 'less than a minute';
}

/**
 * "1 hour 20 minutes", "2 days 3 hours", "45 minutes": to the minute, for a short window to act
 * in (an offer's), where "1 hour" would hide that 59 more minutes are left. Rounded down, so the
 * time left is never overstated.
 */
export function preciseSpan(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return 'less than a minute';
  const [big, small, bigUnit, smallUnit] =
    abs >= DAY
      ? [Math.floor(abs / DAY), Math.floor((abs % DAY) / HOUR), 'day', 'hour']
      : [Math.floor(abs / HOUR), Math.floor((abs % HOUR) / MINUTE), 'hour', 'minute'];
  if (big === 0) return plural(small, smallUnit);
  return small === 0 ? plural(big, bigUnit) : `${plural(big, bigUnit)} ${plural(small, smallUnit)}`;
}

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});
const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const fullFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** "Tue 8 Dec", with the time when the deadline is less than two days away. */
export function day(date: Date, now: number): string {
  const text = dayFormat.format(date).replace(',', '');
  return Math.abs(date.getTime() - now) < 2 * DAY ? `${text}, ${timeFormat.format(date)}` : text;
}

/** The full local date and time, for a title or a `<time>`'s hover. */
export const exact = (iso: string) => fullFormat.format(new Date(iso));

/** "3 hours ago", "just now". */
export function ago(iso: string, now = Date.now()): string {
  const ms = now - new Date(iso).getTime();
  return ms < MINUTE ? 'just now' : `${span(ms)} ago`;
}

/** How a deadline reads before and after it passes. */
export interface DeadlineWords {
  ahead: string;
  past: string;
  /** To the minute ({@link preciseSpan}), for a window of hours rather than days. */
  precise?: boolean;
}
export const DUE: DeadlineWords = { ahead: 'due in', past: 'overdue by' };

/**
 * A deadline with its time left: "due in 3 days (Tue 8 Dec)", "overdue by 2 hours (Mon 7 Dec,
 * 09:00)"; other `words` for other deadlines ("expires in …", "expired … ago").
 */
export function due(iso: string, now = Date.now(), words: DeadlineWords = DUE): string {
  const date = new Date(iso);
  const ms = date.getTime() - now;
  const when = `(${day(date, now)})`;
  const left = words.precise ? preciseSpan(ms) : span(ms);
  if (ms >= 0) return `${words.ahead} ${left} ${when}`;
  return words.past.endsWith(' ago')
    ? `${words.past.slice(0, -4)} ${left} ago ${when}`
    : `${words.past} ${left} ${when}`;
}

/** Whether a deadline has passed or is less than a day away: shown with more weight. */
export function urgency(iso: string, now = Date.now()): 'overdue' | 'soon' | 'later' {
  const ms = new Date(iso).getTime() - now;
  return ms < 0 ? 'overdue' : ms < DAY ? 'soon' : 'later';
}
