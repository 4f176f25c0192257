import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { workspaceClient } from './api.ts';
import { LinkButton } from './link-button.tsx';
import { navigate, paths } from './routes.ts';
import { PROVIDER_MAIL_KIND_LABELS, PROVIDER_MAIL_KINDS } from '@handoff/contracts';

/**
 * The kind a link's token names, read only to ask the question in words: the token is
 * `base64url("<provider>:<kind>").<signature>`, and the server checks the signature when the
 * button is pressed. Anything else (an altered or cut token) asks without naming a kind.
 */
export function kindOf(token: string): string | null {
  const [payload] = token.split('.');
  if (!payload) return null;
  try {
    const text = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const kind = PROVIDER_MAIL_KINDS.find((candidate) => text.endsWith(`:${candidate}`));
    return kind ? PROVIDER_MAIL_KIND_LABELS[kind] : null;
  } catch {
    return null;
  }
}

type Stage = { name: 'ask' } | { name: 'done'; description: string } | { name: 'invalid' };

/**
 * A mail's "stop these mails" link: one question, one button, no sign-in needed (the link is
 * the credential), then a confirmation with the way to the settings.
 */
export function Unsubscribe(props: { token: string | null }) {
  const { token } = props;
  const [stage, setStage] = useState<Stage>(token ? { name: 'ask' } : { name: 'invalid' });
  const heading = useRef<HTMLHeadingElement>(null);
  const label = token ? kindOf(token) : null;
  useLayoutEffect(() => {
    document.title = 'Email settings · Handoff workspace';
    // The question's page gives the focus to its button.
    if (stage.name !== 'ask') heading.current?.focus();
  }, [stage.name]);

  const settingsLink = (text: string) => (
    <a
      href={paths.settings}
      onClick={(event) => {
        event.preventDefault();
        navigate(paths.settings);
      }}
    >
      {text}
    </a>
  );

  return (
    <main id="main" class="narrow">
      <p class="brand-line">Handoff workspace</p>
      {stage.name === 'ask' && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {label ? `Stop emails about “${label}”?` : 'Stop these emails?'}
          </h1>
          <p>
            You will no longer get these emails. Sign-in links and other kinds of email still come;
            you can turn this one on again in your settings.
          </p>
          {token && (
            <LinkButton
              label="Stop these emails"
              busyLabel="Stopping…"
              act={async () => {
                const done = await workspaceClient().unsubscribe({ token });
                setStage({ name: 'done', description: done.description });
              }}
              refusal="unsubscribe_link_invalid"
              onRefused={() => setStage({ name: 'invalid' })}
            />
          )}
        </>
      )}
      {stage.name === 'done' && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            Done: no more of these emails
          </h1>
          <p role="status">You will no longer get emails about “{stage.description}”.</p>
          <p>{settingsLink('Change your email settings')}</p>
        </>
      )}
      {stage.name === 'invalid' && (
        <>
          <h1 ref={heading} tabIndex={-1}>
            This link does not work
          </h1>
          <p role="alert">
            It may have been cut short by your mail program. You can choose which emails you get in
            your settings instead.
          </p>
          <p>{settingsLink('Go to your email settings')}</p>
        </>
      )}
    </main>
  );
}
