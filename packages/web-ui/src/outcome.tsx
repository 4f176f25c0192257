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

export function LoadError({ error }: { error: string | null }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}
