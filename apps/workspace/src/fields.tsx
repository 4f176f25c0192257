import { Field, TextArea, TextField } from '@handoff/web-ui';

/** The members of a form that hold text (what a text box edits). */
export type TextKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/** One text box of a form, by the member it edits. */
export interface FieldSpec<T> {
  name: TextKey<T>;
  label: string;
  hint?: string;
  /** A text of several lines, this many; one line when absent. */
  rows?: number;
  maxLength?: number;
  /** What it takes, for the browser's checks and a phone's keyboard: any text unless said. */
  kind?: 'decimal' | 'url' | 'date' | 'percent';
  placeholder?: string;
}

/** The text boxes of a form, as its specs say, each editing its member of `form`. */
export function TextFields<T>(props: {
  fields: readonly FieldSpec<T>[];
  form: T;
  set: (name: TextKey<T>, value: string) => void;
}) {
  return (
    <>
      {props.fields.map((spec) => (
        <TextBox
          key={spec.name}
          spec={spec}
          value={String(props.form[spec.name])}
          set={props.set}
        />
      ))}
    </>
  );
}

function TextBox<T>(props: {
  spec: FieldSpec<T>;
  value: string;
  set: (name: TextKey<T>, value: string) => void;
}) {
  const { spec, value } = props;
  const onValue = (next: string) => props.set(spec.name, next);
  const labels = { label: spec.label, ...(spec.hint ? { hint: spec.hint } : {}) };
  const onInput = (event: { currentTarget: HTMLInputElement }) =>
    onValue(event.currentTarget.value);
  switch (spec.kind) {
    case 'url':
      return (
        <Field {...labels}>
          <input
            type="url"
            inputMode="url"
            maxLength={spec.maxLength}
            placeholder={spec.placeholder}
            value={value}
            onInput={onInput}
          />
        </Field>
      );
    case 'date':
      return (
        <Field {...labels}>
          <input type="date" value={value} onInput={onInput} />
        </Field>
      );
    case 'percent':
      return (
        <Field {...labels}>
          <input
            type="number"
            min={0}
            max={100}
            step={1}
            inputMode="numeric"
            value={value}
            onInput={onInput}
          />
        </Field>
      );
    default:
      return spec.rows ? (
        <TextArea
          {...labels}
          rows={spec.rows}
          maxLength={spec.maxLength}
          value={value}
          onValue={onValue}
        />
      ) : (
        <TextField
          {...labels}
          {...(spec.kind ? { inputMode: spec.kind } : {})}
          maxLength={spec.maxLength}
          value={value}
          onValue={onValue}
        />
      );
  }
}
