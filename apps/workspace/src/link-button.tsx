import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { errorText, HandoffError } from './api.ts';

/**
 * The one button of a mail link's page (sign in, stop these mails): it takes the focus, so that
 * Enter acts; `act` spends the link, and a link the server refuses (its problem code `refusal`:
 * used, expired, altered) goes to `onRefused`, any other failure shows under the button.
 */
export function LinkButton(props: {
  label: string;
  busyLabel: string;
  act: () => Promise<void>;
  refusal: string;
  onRefused: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => button.current?.focus(), []);
  const press = async () => {
    setBusy(true);
    setError(null);
    try {
      await props.act();
    } catch (failure) {
      if (failure instanceof HandoffError && failure.code === props.refusal) {
        props.onRefused();
        return;
      }
      setError(errorText(failure));
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        ref={button}
        class="primary big"
        disabled={busy}
        onClick={() => void press()}
      >
        {busy ? props.busyLabel : props.label}
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
