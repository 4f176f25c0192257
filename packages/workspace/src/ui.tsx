import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useContext, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { errorText, type ProviderClient, type WorkspaceSession } from './api.ts';
import { drafts, draftKey } from './storage.ts';
import { ago, due, exact, urgency, type DeadlineWords, DUE } from './time.ts';
import { hasNavigated, navigate } from './routes.ts';

/** The signed-in provider and its API client, for every screen behind the sign-in. */
export interface Session {
  session: WorkspaceSession;
  client: ProviderClient;
  signOut(): Promise<void>;
}
export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in screen');
  return session;
}

/** An action's outcome for the screen reader and the eye: an error is an alert. */
export interface Outcome {
  ok: boolean;
  text: string;
}

export function OutcomeLine(props: { outcome: Outcome | null }) {
  const { outcome } = props;
  if (!outcome) return null;
  return outcome.ok ? (
    <p class="ok" role="status">
      {outcome.text}
    </p>
  ) : (
    <p class="error" role="alert">
      {outcome.text}
    </p>
  );
}

/** Runs one action at a time and reports how it went; `run` resolves to whether it worked. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const live = useRef(true);
  // `busy` disables the button, but a keyboard shortcut (Ctrl+Enter) or a second Enter can come
  // before the page shows it: a second run while one is under way is dropped, not sent twice.
  const running = useRef(false);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  async function run(work: () => Promise<string | null>): Promise<boolean> {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setOutcome(null);
    try {
      const text = await work();
      if (live.current) setOutcome(text ? { ok: true, text } : null);
      return true;
    } catch (error) {
      if (live.current) setOutcome({ ok: false, text: errorText(error) });
      return false;
    } finally {
      running.current = false;
      if (live.current) setBusy(false);
    }
  }
  return { busy, outcome, run, setOutcome };
}

/** Loads data for a screen area; `reload` fetches it again (after an action or a live event). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
      },
      (failure: unknown) => live && setError(errorText(failure)),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, reload: () => setTick((n) => n + 1) };
}

export function LoadError({ error }: { error: string | null }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

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

export function Field(props: { label: string; hint?: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span class="label">{props.label}</span>
      {props.hint && <span class="hint">{props.hint}</span>}
      {props.children}
    </label>
  );
}

/**
 * A text a person writes, kept as a draft in this tab's sessionStorage under `what` (per
 * provider) while they type: a reload, a lost connection or a sign-out does not lose it.
 */
export function useDraft(what: string): [string, (value: string) => void] {
  const { session } = useSession();
  const key = draftKey(session.provider.id, what);
  const [value, setValue] = useState(() => drafts.get(key));
  return [
    value,
    (next: string) => {
      setValue(next);
      drafts.set(key, next);
    },
  ];
}

/** A link inside the app: followed without a page load, unless opened in a new tab. */
export function Link(props: {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
}) {
  const { href, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        if (
          event.button !== 0 ||
          event.metaKey ||
          event.ctrlKey ||
          event.shiftKey ||
          event.altKey
        ) {
          return;
        }
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

/**
 * A button whose action needs a second, explicit confirmation (withdrawing, completing): the
 * first press asks, showing what will happen; "Yes, …" acts, "Cancel" goes back.
 */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  disabled?: boolean;
  primary?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // The question takes the focus (Enter confirms, Tab reaches Cancel); going back returns it.
  useLayoutEffect(() => {
    if (asking) confirm.current?.focus();
    else if (asked.current) trigger.current?.focus();
    asked.current = asking;
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        ref={trigger}
        class={props.primary ? 'primary' : ''}
        disabled={props.disabled}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    <div class="confirm" role="group" aria-label={props.label}>
      <p>{props.question}</p>
      <div class="actions">
        <button
          type="button"
          ref={confirm}
          class="primary"
          onClick={() => {
            setAsking(false);
            props.onConfirm();
          }}
        >
          {props.confirmLabel}
        </button>
        <button type="button" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/**
 * A screen's top: its heading, which takes the focus when the person moved here inside the app
 * (so a screen reader announces the new screen and Tab starts from its top), and the page title.
 */
export function ScreenTitle(props: {
  title: string;
  /** The browser tab's title, when it says more than the heading (unread counts). */
  tabTitle?: string;
  children?: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    if (hasNavigated()) heading.current?.focus();
  }, []);
  const tab = props.tabTitle ?? props.title;
  useEffect(() => {
    document.title = `${tab} · Handoff workspace`;
  }, [tab]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {props.children ?? props.title}
    </h1>
  );
}

/** Like {@link useDraft}, for a form of several fields kept together. */
export function useDraftForm<T extends object>(
  what: string,
  empty: T,
): [T, (next: T) => void, () => void] {
  const [text, setText] = useDraft(what);
  let value = empty;
  if (text) {
    try {
      value = { ...empty, ...(JSON.parse(text) as Partial<T>) };
    } catch {
      // A draft from another version of the form: start afresh.
    }
  }
  return [value, (next: T) => setText(JSON.stringify(next)), () => setText('')];
}

/** An area of a screen: a section with its heading (`id` for the page's own links). */
export function Area(props: {
  id: string;
  title: string;
  note?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <section id={props.id} class="area" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.note && <p class="hint">{props.note}</p>}
      {props.children}
    </section>
  );
}

/**
 * A success notice that holds while the thing it is about is in the state the action led to
 * (`expected`), and goes once it moves on (say, "Submitted" once the customer has decided).
 */
export function useNotice(state: string) {
  const [notice, setNotice] = useState<{ text: string; expected: string } | null>(null);
  return {
    outcome:
      notice && notice.expected === state ? ({ ok: true, text: notice.text } as Outcome) : null,
    show: (text: string, expected: string) => setNotice({ text, expected }),
  };
}
