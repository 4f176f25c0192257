import { ConfirmButton, TextField, type Runner } from '@handoff/web-ui';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { SCOPES, type Scope } from './api.ts';
import type { Go } from './navigation.ts';

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

/** A table that scrolls sideways on its own on a narrow screen, reachable by keyboard. */
export function Scroller(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="scroll" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}

export const when = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—';

export const money = (amount: number | null | undefined, currency: string | null | undefined) =>
  amount === null || amount === undefined ? '—' : `${amount.toFixed(2)} ${currency ?? ''}`.trim();

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

/** A request's id that opens it on the Request screen. */
export function RequestLink(props: { id: string; go: Go }) {
  return (
    <button type="button" class="link" onClick={() => props.go('request', props.id)}>
      {props.id}
    </button>
  );
}

/**
 * A refusal that needs a reason the parties see (rejecting, failing, cancelling): the reason's
 * box, then the button that asks to confirm, available once a reason is given.
 */
export function ReasonedConfirm(props: {
  /** The reason box's label. */
  field: string;
  label: string;
  question: string;
  /** Unavailable for another reason than a missing reason. */
  disabled?: boolean;
  action: Runner;
  work: (reason: string) => Promise<string | null>;
}) {
  const [reason, setReason] = useState('');
  return (
    <>
      <TextField label={props.field} value={reason} onValue={setReason} />
      <ConfirmButton
        label={props.label}
        question={props.question}
        danger
        disabled={props.disabled || reason.trim() === ''}
        action={props.action}
        work={() => props.work(reason)}
      />
    </>
  );
}
