import { Field } from '@handoff/web-ui';
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { errorText, workspaceClient, type WorkspaceSession } from './api.ts';
import { LinkButton } from './link-button.tsx';
import { hearOtherTabs, tellOtherTabs } from './tabs.ts';

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
  /** The address to ask with, filled in (after a session ended on its own). */
  email: string;
  onSignedIn: (session: WorkspaceSession) => void;
}) {
  const [stage, setStage] = useState<Stage>(
    props.token ? { name: 'link', token: props.token } : { name: 'ask' },
  );
  // Filled in until a link is asked for: "Use another address" then starts empty.
  const [prefill, setPrefill] = useState(props.email);
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  // Focus moves as the screen changes, before anything else can take it (a layout effect).
  useLayoutEffect(() => {
    document.title = 'Sign in · Handoff workspace';
    // A new stage is a new page to a screen reader: its heading takes the focus. So does the
    // first, when the person was sent here from another screen (signed out), with the notice
    // that says why as its description; a link's page keeps the focus on its one button.
    if (!first.current || (props.notice && stage.name !== 'link')) heading.current?.focus();
    first.current = false;
  }, [stage.name]);

  // Signed in again in another tab (say, from the mail's link): this tab goes on where it was,
  // once it hears so from that tab, or is looked at again.
  useEffect(() => {
    if (stage.name === 'link') return;
    const recheck = () => {
      workspaceClient()
        .session()
        .then(props.onSignedIn, () => undefined);
    };
    const lookedAt = () => document.visibilityState === 'visible' && recheck();
    const stopHearing = hearOtherTabs((news) => news === 'signed-in' && recheck());
    if (!props.notice) return stopHearing;
    window.addEventListener('focus', lookedAt);
    document.addEventListener('visibilitychange', lookedAt);
    return () => {
      stopHearing();
      window.removeEventListener('focus', lookedAt);
      document.removeEventListener('visibilitychange', lookedAt);
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
          <h1
            ref={heading}
            tabIndex={-1}
            aria-describedby={stage.name === 'ask' && props.notice ? 'sign-in-notice' : undefined}
          >
            {stage.name === 'link-failed' ? 'This sign-in link no longer works' : 'Sign in'}
          </h1>
          {stage.name === 'link-failed' ? (
            <p role="alert" class="callout">
              It has been used already or it has expired: each link signs you in once, within 15
              minutes. Ask for a new one below.
            </p>
          ) : (
            props.notice && (
              <p role="status" class="callout" id="sign-in-notice">
                {props.notice}
              </p>
            )
          )}
          <AskForLink
            email={prefill}
            onSent={(email) => {
              setPrefill('');
              setStage({ name: 'sent', email });
            }}
          />
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
  return (
    <>
      <h1 ref={props.heading} tabIndex={-1}>
        Sign in to your workspace
      </h1>
      <p>You opened a sign-in link from your email. Press the button to sign in on this device.</p>
      <LinkButton
        label="Sign in"
        busyLabel="Signing in…"
        act={async () => {
          const session = await workspaceClient().signIn({ token: props.token });
          tellOtherTabs('signed-in');
          props.onSignedIn(session);
        }}
        refusal="sign_in_link_invalid"
        onRefused={props.onFailed}
      />
    </>
  );
}

function AskForLink(props: { email: string; onSent: (email: string) => void }) {
  const [email, setEmail] = useState(props.email);
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
