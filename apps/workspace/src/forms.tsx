import { OutcomeLine, TextArea } from '@handoff/web-ui';
import type { ComponentChildren } from 'preact';
import { FilePicker, type ChosenFiles } from './attach.tsx';
import { useDraft, useDraftForm } from './drafts.ts';
import { TextFields, type FieldSpec } from './fields.tsx';
import { useAction } from './hooks.ts';

/** The button that sends a form, saying so while it does. */
function SendButton(props: { busy: boolean; label: string; busyLabel: string; primary?: boolean }) {
  return (
    <button type="submit" class={props.primary ? 'primary' : undefined} disabled={props.busy}>
      {props.busy ? props.busyLabel : props.label}
    </button>
  );
}

/**
 * A form kept as a draft while it is filled in (a reload, a lost connection or a sign-out keeps
 * it), which checks what was entered, sends it, and forgets the draft once sent. With a
 * `summary` it sits folded in a `<details>`, for the person to open when they need it.
 */
export function DraftForm<T extends object>(props: {
  /** What names the draft among the provider's (`link.<milestone id>`). */
  draft: string;
  empty: T;
  summary?: string;
  class?: string;
  'aria-labelledby'?: string;
  /** The call that sends the form, or what is wrong with it in words. */
  check: (form: T) => string | (() => Promise<unknown>);
  /** What to say once sent; nothing when the screen shows it. */
  sent?: string;
  onSent: () => void;
  send: { label: string; busyLabel: string; primary?: boolean };
  /** Its text boxes; `children` adds what is not a text box. */
  fields?: readonly FieldSpec<T>[];
  children?: (form: T, set: (change: Partial<T>) => void) => ComponentChildren;
}) {
  const [form, setForm, clear] = useDraftForm(props.draft, props.empty);
  const action = useAction();
  const body = (
    <form
      class={props.class}
      aria-labelledby={props['aria-labelledby']}
      onSubmit={(event) => {
        event.preventDefault();
        const send = props.check(form);
        if (typeof send === 'string') {
          action.setOutcome({ ok: false, text: send });
          return;
        }
        void action.run(async () => {
          await send();
          clear();
          props.onSent();
          return props.sent ?? null;
        });
      }}
    >
      {props.fields && (
        <TextFields
          fields={props.fields}
          form={form}
          set={(name, value) => setForm({ ...form, [name]: value })}
        />
      )}
      {props.children?.(form, (change) => setForm({ ...form, ...change }))}
      <OutcomeLine outcome={action.outcome} />
      <SendButton busy={action.busy} {...props.send} />
    </form>
  );
  if (!props.summary) return body;
  return (
    <details>
      <summary>{props.summary}</summary>
      {body}
    </details>
  );
}

/**
 * A message to the other side (to the conversation, to a dispute), a draft in this tab until it
 * is sent: a failed send, a reload or a sign-out keeps it. Ctrl+Enter (⌘+Enter) sends, as in
 * most chat and mail apps.
 */
export function MessageForm(props: {
  draft: string;
  /** The box's label, what to say when the person sends nothing, and the button's words. */
  words: { label: string; empty: string; send: string };
  rows: number;
  maxLength: number;
  class?: string;
  /** Files to send with the text (uploaded first); the text may then be empty. */
  attach?: { files: ChosenFiles; label: string; hint: string };
  /** Sends the text and the uploaded files' ids; answers what to say once sent, if anything. */
  onSend: (text: string, attachments: string[]) => Promise<string | null>;
}) {
  const { words, attach } = props;
  const [draft, setDraft] = useDraft(props.draft);
  const send = useAction();
  const submit = async () => {
    const text = draft.trim();
    // Files go with a few words about them: the message is what the customer reads first.
    if (text === '') {
      send.setOutcome({ ok: false, text: words.empty });
      return;
    }
    await send.run(async () => {
      // Uploaded first; a failure keeps the text and every file for another try.
      const ids = attach ? await attach.files.uploadAll() : [];
      const said = await props.onSend(text, ids);
      setDraft('');
      attach?.files.clear();
      return said;
    });
  };
  return (
    <form
      class={props.class}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextArea
        label={words.label}
        name="message"
        rows={props.rows}
        maxLength={props.maxLength}
        value={draft}
        readOnly={send.busy}
        onValue={setDraft}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void submit();
          }
        }}
      />
      {attach && <FilePicker files={attach.files} label={attach.label} hint={attach.hint} />}
      <OutcomeLine outcome={send.outcome} />
      <SendButton busy={send.busy} primary label={words.send} busyLabel="Sending…" />
    </form>
  );
}
