import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { errorText, HandoffError, workspaceClient, type WorkspaceSession } from './api.ts';
import { Field } from './ui.tsx';

type Stage =
  /** Came from a mail's link: one button exchanges it. */
  | { name: 'link'; token: string }
  /** The link was used, had expired or is not one of ours: say so, and offer a new one. */
  | { name: 'link-failed' }
  | { name: 'ask' }
  | { name: 'sent'; email: string };

/**
 * Signing in without a password: the provider asks for a link by email, and the link's page
 * signs it in with one button (a mail scanner that opens the link signs nobody in). The answer to
 * "email me a link" is the same whether or not the address is a provider's.
 */
export function SignIn(props: {
  token: string | null;
  notice: string | null;
  onSignedIn: (session: WorkspaceSession) => void;
}) {
  const [stage, setStage] = useState<Stage>(
    props.token ? { name: 'link', token: props.token } : { name: 'ask' },
  );
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  // Focus moves as the screen changes, before anything else can take it (a layout effect).
  useLayoutEffect(() => {
    document.title = 'Sign in · Handoff workspace';
    // A new stage is a new page to a screen reader: its heading takes the focus.
    if (!first.current) heading.current?.focus();
    first.current = false;
  }, [stage.name]);

  // Signed in again in another tab (say, from the mail's link): this tab goes on where it was.
  useEffect(() => {
    if (!props.notice || stage.name === 'link') return;
    const recheck = () => {
      if (document.visibilityState !== 'visible') return;
      workspaceClient()
        .session()
        .then(props.onSignedIn, () => undefined);
    };
    window.addEventListener('focus', recheck);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      window.removeEventListener('focus', recheck);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, [props.notice, stage.name]);

  return (
    <main id="main" class="narrow">
      <p class="brand-line">Handoff workspace</p>
      {stage.name === 'link' && (
        <LinkSignIn
          heading={heading}
          token={stage.token}
          onSignedIn={props.onSignedIn}
          onFailed={() => setStage({ name: 'link-failed' })}
        />
      )}
      {(stage.name === 'ask' || stage.name === 'link-failed') && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {stage.name === 'link-failed' ? 'This sign-in link no longer works' : 'Sign in'}
          </h1>
          {stage.name === 'link-failed' ? (
            <p role="alert" class="callout">
              It has been used already or it has expired: each link signs you in once, within 15
              minutes. Ask for a new one below.
            </p>
          ) : (
            props.notice && (
              <p role="status" class="callout">
                {props.notice}
              </p>
            )
          )}
          <AskForLink onSent={(email) => setStage({ name: 'sent', email })} />
        </>
      )}
      {stage.name === 'sent' && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            Check your email
          </h1>
          <p>
            If <strong>{stage.email}</strong> is the address Handoff has for you, a sign-in link is
            on its way. Open it on this device: it works once, within 15 minutes.
          </p>
          <p class="hint">
            Nothing after a few minutes? Look in your spam folder, or check the address and ask
            again.
          </p>
          <button type="button" onClick={() => setStage({ name: 'ask' })}>
            Use another address
          </button>
        </>
      )}
    </main>
  );
}

function LinkSignIn(props: {
  heading: RefObject<HTMLHeadingElement | null>;
  token: string;
  onSignedIn: (session: WorkspaceSession) => void;
  onFailed: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  // The one thing to do here: Enter signs in.
  useLayoutEffect(() => button.current?.focus(), []);
  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      props.onSignedIn(await workspaceClient().signIn({ token: props.token }));
    } catch (failure) {
      if (failure instanceof HandoffError && failure.code === 'sign_in_link_invalid') {
        props.onFailed();
        return;
      }
      setError(errorText(failure));
      setBusy(false);
    }
  };
  return (
    <>
      <h1 ref={props.heading} tabIndex={-1}>
        Sign in to your workspace
      </h1>
      <p>You opened a sign-in link from your email. Press the button to sign in on this device.</p>
      <button
        type="button"
        ref={button}
        class="primary big"
        disabled={busy}
        onClick={() => void signIn()}
      >
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

function AskForLink(props: { onSent: (email: string) => void }) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const address = email.trim();
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
          setError('Enter your email address, like name@example.com.');
          return;
        }
        setBusy(true);
        setError(null);
        workspaceClient()
          .askForLink({ email: address })
          .then(
            () => props.onSent(address),
            (failure: unknown) => {
              setError(errorText(failure));
              setBusy(false);
            },
          );
      }}
    >
      <p>Enter the email address Handoff has for you, and we will email you a link to sign in.</p>
      <Field label="Email address">
        <input
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'email-error' : undefined}
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
      </Field>
      {error && (
        <p class="error" role="alert" id="email-error">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Sending…' : 'Email me a sign-in link'}
      </button>
    </form>
  );
}
