// How mails say times, money and titles to a person: plain words, never an id.

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** `Tue 8 Dec at 14:00 UTC` (UTC: a mail cannot know the reader's time zone). */
export function dateInWords(at: Date): string {
  const hh = String(at.getUTCHours()).padStart(2, '0');
  const mm = String(at.getUTCMinutes()).padStart(2, '0');
  return `${WEEKDAYS[at.getUTCDay()]} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} at ${hh}:${mm} UTC`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** `in 3 days`, `in 5 hours`, `in 20 minutes`, or `2 hours ago` once it has passed. */
export function timeLeft(deadline: Date, now: Date): string {
  const left = deadline.getTime() - now.getTime();
  const span = Math.abs(left);
  if (span < MINUTE_MS) return left >= 0 ? 'in less than a minute' : 'just now';
  const amount =
    span >= 2 * DAY_MS
      ? plural(Math.floor(span / DAY_MS), 'day')
      : span >= 2 * HOUR_MS
        ? plural(Math.floor(span / HOUR_MS), 'hour')
        : plural(Math.floor(span / MINUTE_MS), 'minute');
  return left >= 0 ? `in ${amount}` : `${amount} ago`;
}

/** `in 3 days, on Tue 8 Dec at 14:00 UTC`: every deadline a mail names comes with its time left. */
export function deadlineInWords(deadline: Date, now: Date): string {
  return `${timeLeft(deadline, now)}, on ${dateInWords(deadline)}`;
}

/** `EUR 1,250.00` as the reader's bank would show it; an unknown currency code as given. */
export function moneyInWords(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** At most `max` characters, cut at a word, with an ellipsis when cut; whitespace collapsed. */
export function shortened(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** What a request is called in a mail: its subject, else the start of what the customer wrote. */
export function requestTitle(request: { subject: string | null; message: string }): string {
  return shortened(request.subject ?? request.message, 60) || 'your request';
}
