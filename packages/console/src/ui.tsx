import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, SCOPES, type Scope } from './api.ts';

/** An action's outcome for the screen reader and the eye: an error is an alert. */
export interface Outcome {
  ok: boolean;
  text: string;
}

/** With `errorsOnly`, a success is left to the screen (the item it was about may be gone). */
export function OutcomeLine(props: { outcome: Outcome | null; errorsOnly?: boolean }) {
  const { outcome } = props;
  if (!outcome || (props.errorsOnly && outcome.ok)) return null;
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

/** Runs one action at a time and reports how it went. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  async function run(work: () => Promise<string>): Promise<void> {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ ok: true, text: await work() });
    } catch (error) {
      setOutcome({ ok: false, text: errorText(error) });
    } finally {
      setBusy(false);
    }
  }
  return { busy, outcome, run, setOutcome };
}

/** Loads data for a screen; `reload` fetches it again after an action. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (value) => live && setData(value),
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

/**
 * A button whose action needs a second, explicit confirmation (money, revocation): the first
 * press asks, showing what will happen; "Confirm" acts, "Cancel" goes back.
 */
export function ConfirmButton(props: {
  label: string;
  question: string;
  disabled?: boolean;
  danger?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // The question takes the focus (Enter confirms, Tab reaches Cancel); going back returns it.
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (asked.current) trigger.current?.focus();
    asked.current = asking;
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        ref={trigger}
        class={props.danger ? 'danger' : ''}
        disabled={props.disabled}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={`Confirm: ${props.label}`}>
      <span>{props.question}</span>{' '}
      <button
        type="button"
        ref={confirm}
        class={props.danger ? 'danger' : 'primary'}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        Confirm
      </button>{' '}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/**
 * A secret the API shows once (an issued key): shown here until dismissed, then forgotten. It is
 * never written to storage, and leaving the screen forgets it too.
 */
export function OnceSecret(props: { label: string; value: string; onDone: () => void }) {
  return (
    <div class="secret" role="region" aria-label={props.label}>
      <p>
        <strong>{props.label}</strong>: shown once. Copy it now; the console does not keep it.
      </p>
      <label>
        Secret
        <input type="text" readOnly value={props.value} class="mono" data-testid="once-secret" />
      </label>
      <button type="button" onClick={props.onDone}>
        I have copied it; hide it
      </button>
    </div>
  );
}

/** A table's header row: a column heading per name. */
export function ColumnHeads(props: { names: string[] }) {
  return (
    <thead>
      <tr>
        {props.names.map((name) => (
          <th scope="col" key={name}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export function Field(props: { label: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

export const when = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—';

export const money = (amount: number | null | undefined, currency: string | null | undefined) =>
  amount === null || amount === undefined ? '—' : `${amount.toFixed(2)} ${currency ?? ''}`.trim();

/**
 * Asks for an id and opens it on submit; `suggestions` offer ids to pick from (a datalist of that
 * id, each option an id and what to show beside it).
 */
export function IdForm(props: {
  label: string;
  initial: string;
  onOpen: (id: string) => void;
  suggestions?: { id: string; options: { value: string; label: string }[] };
}) {
  const [value, setValue] = useState(props.initial);
  const { suggestions } = props;
  return (
    <form
      class="inline"
      onSubmit={(e) => {
        e.preventDefault();
        props.onOpen(value.trim());
      }}
    >
      <Field label={props.label}>
        <input
          class="mono"
          list={suggestions?.id}
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
      </Field>
      {suggestions && (
        <datalist id={suggestions.id}>
          {suggestions.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </datalist>
      )}
      <button type="submit" disabled={value.trim() === ''}>
        Open
      </button>
    </form>
  );
}

/**
 * A screen of one thing opened by its id: the title, an optional note, the {@link IdForm}, and
 * once an id is open, `view` of it (give the view `key={id}` so that another id starts afresh).
 */
export function IdScreen(props: {
  /** The section's name, e.g. `request`: its heading's id is `<name>-title`. */
  name: string;
  title: string;
  note?: ComponentChildren;
  label: string;
  initial: string;
  suggestions?: { id: string; options: { value: string; label: string }[] };
  view: (id: string) => ComponentChildren;
}) {
  const [id, setId] = useState(props.initial);
  return (
    <section aria-labelledby={`${props.name}-title`}>
      <h2 id={`${props.name}-title`}>{props.title}</h2>
      {props.note && <p class="note">{props.note}</p>}
      <IdForm
        label={props.label}
        initial={props.initial}
        onOpen={setId}
        {...(props.suggestions ? { suggestions: props.suggestions } : {})}
      />
      {id && props.view(id)}
    </section>
  );
}

/** A loaded list as cards: its load error, `empty` when it has no items, else `card` of each. */
export function Cards<T>(props: {
  list: { data: { data: T[] } | null; error: string | null };
  empty?: ComponentChildren;
  card: (item: T) => ComponentChildren;
}) {
  const { data, error } = props.list;
  return (
    <>
      <LoadError error={error} />
      {props.empty && data?.data.length === 0 && <p>{props.empty}</p>}
      <ul class="cards">{data?.data.map((item) => props.card(item))}</ul>
    </>
  );
}

/** The status a list screen shows, one of `statuses`. */
export function StatusSelect(props: {
  value: string;
  statuses: readonly string[];
  onChange: (status: string) => void;
}) {
  return (
    <Field label="Status">
      <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {props.statuses.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </select>
    </Field>
  );
}

/**
 * A checkbox of every scope, ticked for those `chosen`; `requested` ones are marked. `onChange`
 * gets the new choice.
 */
export function ScopePicker(props: {
  legend: string;
  chosen: ReadonlySet<Scope>;
  requested?: readonly Scope[];
  onChange: (chosen: Set<Scope>) => void;
}) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {SCOPES.map((scope) => (
        <label key={scope} class="check">
          <input
            type="checkbox"
            checked={props.chosen.has(scope)}
            onChange={(e) => {
              const next = new Set(props.chosen);
              if (e.currentTarget.checked) next.add(scope);
              else next.delete(scope);
              props.onChange(next);
            }}
          />{' '}
          {scope}
          {props.requested?.includes(scope) ? ' (requested)' : ''}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * A queue screen's state: the status it lists (`initial` at first), the item open for a
 * decision, and the outcome of the last one; `decided` shows an outcome and reloads the list.
 */
export function useQueue<T>(
  initial: string,
  load: (status: string) => Promise<T>,
  deps: unknown[],
) {
  const [status, setStatus] = useState(initial);
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<Outcome | null>(null);
  const list = useLoad(() => load(status), [...deps, status]);
  const decided = (text: string) => {
    setNotice({ ok: true, text });
    list.reload();
  };
  return { status, setStatus, open, setOpen, notice, list, decided };
}

/** The panel of an item when it is the one open, else the button that opens it. */
export function Opener(props: {
  open: boolean;
  label: string;
  onOpen: () => void;
  children: ComponentChildren;
}) {
  if (props.open) return <>{props.children}</>;
  return (
    <button type="button" onClick={props.onOpen}>
      {props.label}
    </button>
  );
}
