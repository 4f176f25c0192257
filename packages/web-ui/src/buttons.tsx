import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/** What runs a button's work, one at a time, and reports how it went: `useAction()`. */
export interface Runner {
  busy: boolean;
  run(work: () => Promise<string | null>): Promise<boolean>;
}

/** A button that runs `work` through `action`, unavailable while any of its work runs. */
export function ActionButton(props: {
  label: ComponentChildren;
  /** Said instead of the label while the work runs ("Signing out…"). */
  busyLabel?: string;
  class?: string;
  disabled?: boolean;
  action: Runner;
  work: () => Promise<string | null>;
}) {
  const { action } = props;
  return (
    <button
      type="button"
      class={props.class}
      disabled={action.busy || props.disabled}
      onClick={() => void action.run(props.work)}
    >
      {action.busy && props.busyLabel ? props.busyLabel : props.label}
    </button>
  );
}

/**
 * A button whose work needs a second, explicit confirmation (money, revocation, completing a
 * job): the first press asks, showing what will happen (and any fields the question asks for,
 * such as a reason); the confirming button runs `work` through `action`, "Cancel" or Escape goes
 * back.
 */
export function ConfirmButton(props: {
  label: string;
  question: string;
  /** The confirming button's words ("Yes, withdraw it"); "Confirm" unless given. */
  confirmLabel?: string;
  disabled?: boolean;
  /** The work cannot be undone and costs someone something (revoking, failing a payment). */
  danger?: boolean;
  /** The screen's main action. */
  primary?: boolean;
  action: Runner;
  work: () => Promise<string | null>;
  /** Fields the question asks for (a reason): shown with it, the first one taking the focus. */
  children?: ComponentChildren;
  /** Asking from the start (the fields hold a kept draft); the focus stays where the page put it. */
  open?: boolean;
  /**
   * Said on the confirming button while the work runs: the question then stays open (its fields
   * read only) until the work succeeds, so a failure leaves what was typed in place.
   */
  busyLabel?: string;
}) {
  const [asking, setAsking] = useState(props.open ?? false);
  const group = useRef<HTMLDivElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const asked = useRef(asking);
  // The question's first field, else its confirming button, takes the focus (Enter confirms, Tab
  // reaches Cancel); going back returns it.
  useLayoutEffect(() => {
    if (asking === asked.current) return;
    if (asking) {
      const field = group.current?.querySelector<HTMLElement>('input, textarea, select');
      (field ?? confirm.current)?.focus();
    } else trigger.current?.focus();
    asked.current = asking;
  }, [asking]);
  const { action } = props;
  if (!asking) {
    return (
      <button
        type="button"
        ref={trigger}
        class={props.danger ? 'danger' : props.primary ? 'primary' : ''}
        disabled={action.busy || props.disabled}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  const staysOpen = props.busyLabel !== undefined;
  return (
    <div
      class="confirm"
      role="group"
      aria-label={props.label}
      ref={group}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !action.busy) setAsking(false);
      }}
    >
      <p>{props.question}</p>
      {props.children}
      <div class="actions">
        <button
          type="button"
          ref={confirm}
          class={props.danger ? 'danger' : 'primary'}
          disabled={staysOpen && action.busy}
          onClick={() => {
            if (!staysOpen) {
              setAsking(false);
              void action.run(props.work);
              return;
            }
            void action.run(props.work).then((done) => {
              if (done) setAsking(false);
            });
          }}
        >
          {staysOpen && action.busy ? props.busyLabel : (props.confirmLabel ?? 'Confirm')}
        </button>
        <button type="button" disabled={staysOpen && action.busy} onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
