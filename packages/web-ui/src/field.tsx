import type { ComponentChildren, InputHTMLAttributes, TextareaHTMLAttributes } from 'preact';

/** A form control with its label, and a hint under the label when there is one. */
export function Field(props: { label: string; hint?: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span class="label">{props.label}</span>
      {props.hint && <span class="hint">{props.hint}</span>}
      {props.children}
    </label>
  );
}

interface Labelled {
  label: string;
  hint?: string;
  value: string;
  /** Hears each change of the text. */
  onValue(value: string): void;
}

/** A one-line text box with its label (`inputMode` for the keyboard a phone shows). */
export function TextField(
  props: Labelled &
    Pick<
      InputHTMLAttributes,
      'inputMode' | 'autoComplete' | 'maxLength' | 'placeholder' | 'required' | 'class'
    >,
) {
  const { label, hint, onValue, ...input } = props;
  return (
    <Field label={label} {...(hint ? { hint } : {})}>
      <input type="text" {...input} onInput={(event) => onValue(event.currentTarget.value)} />
    </Field>
  );
}

/** A text of several lines with its label. */
export function TextArea(
  props: Labelled &
    Pick<TextareaHTMLAttributes, 'rows' | 'maxLength' | 'readOnly' | 'name' | 'onKeyDown'>,
) {
  const { label, hint, onValue, ...area } = props;
  return (
    <Field label={label} {...(hint ? { hint } : {})}>
      <textarea {...area} onInput={(event) => onValue(event.currentTarget.value)} />
    </Field>
  );
}
