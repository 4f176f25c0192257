import { useEffect, useState } from 'preact/hooks';
import { ago, due, exact, urgency, type DeadlineWords, DUE } from './time.ts';

// Time on screen: a clock that moves on, deadlines with the time left, and how long ago.

/** The current time, moving on every minute, so that "due in …" stays true on an open page. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A deadline with its time left, more visible when it is near or past. */
export function Deadline(props: { at: string; words?: DeadlineWords; now: number }) {
  return (
    <time
      dateTime={props.at}
      title={exact(props.at)}
      class={`deadline ${urgency(props.at, props.now)}`}
    >
      {due(props.at, props.now, props.words ?? DUE)}
    </time>
  );
}

/** How long ago something happened, with the exact time on hover. */
export function Ago(props: { at: string; now: number }) {
  return (
    <time dateTime={props.at} title={exact(props.at)}>
      {ago(props.at, props.now)}
    </time>
  );
}
