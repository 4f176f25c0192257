import { Field, LoadError, OutcomeLine, type Outcome } from '@handoff/web-ui';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { StaffApi } from './api.ts';
import { useLoad } from './hooks.ts';

// The frames of the console's screens: one thing opened by its id, a list of cards, a queue of
// things waiting for a decision.

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

/** A screen of one thing opened by its id, whose `View` shows the thing of that id. */
export function idScreen(screen: {
  name: string;
  title: string;
  note?: string;
  label: string;
  View: (props: { api: StaffApi; id: string }) => ComponentChildren;
}) {
  const { View, ...frame } = screen;
  return ({ api, initial }: { api: StaffApi; initial: string }) => (
    <IdScreen {...frame} initial={initial} view={(id) => <View key={id} api={api} id={id} />} />
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

/** A queue screen: the status it lists, the last decision's outcome, and a card of each item. */
export function QueueScreen<T>(props: {
  /** The section's name, e.g. `disputes`: its heading's id is `<name>-title`. */
  name: string;
  title: string;
  statuses: readonly string[];
  queue: {
    status: string;
    setStatus: (status: string) => void;
    notice: Outcome | null;
    list: { data: { data: T[] } | null; error: string | null };
  };
  /** What to say when no item has the status shown. */
  empty: string;
  card: (item: T) => ComponentChildren;
}) {
  const { queue } = props;
  return (
    <section aria-labelledby={`${props.name}-title`}>
      <h2 id={`${props.name}-title`}>{props.title}</h2>
      <StatusSelect value={queue.status} statuses={props.statuses} onChange={queue.setStatus} />
      <OutcomeLine outcome={queue.notice} />
      <Cards list={queue.list} empty={props.empty} card={props.card} />
    </section>
  );
}
