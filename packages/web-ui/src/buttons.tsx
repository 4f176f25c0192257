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
 * job): the first press asks, showing what will happen; the confirming button runs `work`
 * through `action`, "Cancel" goes back.
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
        class={props.danger ? 'danger' : props.primary ? 'primary' : ''}
        disabled={props.action.busy || props.disabled}
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
          class={props.danger ? 'danger' : 'primary'}
          onClick={() => {
            setAsking(false);
            void props.action.run(props.work);
          }}
        >
          {props.confirmLabel ?? 'Confirm'}
        </button>
        <button type="button" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
