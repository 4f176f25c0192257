import { ActionButton, LoadError, OutcomeLine } from '@handoff/web-ui';
import { useEffect, useState } from 'preact/hooks';
import type { NotificationSettings } from './api.ts';
import { AvailabilityArea } from './availability.tsx';
import { Deadline, useNow } from './clock.tsx';
import { useAction, useLoad } from './hooks.ts';
import { Area, ScreenTitle } from './screen.tsx';
import { useSession } from './session.ts';
import { PROVIDER_MAIL_KIND_LABELS, PROVIDER_MAIL_KINDS } from '@handoff/contracts';

type Kinds = NotificationSettings['kinds'];

/** Whether Handoff offers the provider new requests, which emails it gets, and signing out. */
export function Settings() {
  const { client, session, signOut } = useSession();
  const now = useNow();
  const settings = useLoad(() => client.notificationSettings.get(), []);
  const [kinds, setKinds] = useState<Kinds | null>(null);
  useEffect(() => {
    if (settings.data) setKinds(settings.data.kinds);
  }, [settings.data]);
  const save = useAction();
  const leave = useAction();
  const changed =
    kinds !== null &&
    settings.data !== null &&
    PROVIDER_MAIL_KINDS.some((kind) => kinds[kind] !== settings.data?.kinds[kind]);
  return (
    <>
      <ScreenTitle title="Settings" />
      <AvailabilityArea />
      <Area id="email" title="Email">
        <LoadError error={settings.error} />
        {settings.data === null && !settings.error && <p role="status">Loading…</p>}
        {settings.data && kinds && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void save.run(async () => {
                const saved = await client.notificationSettings.update({ kinds });
                setKinds(saved.kinds);
                settings.reload();
                return 'Your email choices are saved.';
              });
            }}
          >
            <p>
              Handoff writes to <strong>{settings.data.email}</strong>. The sign-in links always go;
              choose which of the rest you want.
            </p>
            {settings.data.email_status === 'bouncing' && (
              <p class="callout" role="note">
                Mail to this address came back undelivered, so Handoff holds it back for now. Ask
                Handoff to change your address if it is wrong.
              </p>
            )}
            <fieldset>
              <legend>Email me when…</legend>
              {PROVIDER_MAIL_KINDS.map((kind) => (
                <label key={kind} class="check">
                  <input
                    type="checkbox"
                    name={kind}
                    checked={kinds[kind]}
                    onChange={(event) =>
                      setKinds({ ...kinds, [kind]: event.currentTarget.checked })
                    }
                  />
                  {PROVIDER_MAIL_KIND_LABELS[kind]}
                </label>
              ))}
            </fieldset>
            <OutcomeLine outcome={save.outcome} />
            <button type="submit" class="primary" disabled={save.busy || !changed}>
              {save.busy ? 'Saving…' : 'Save email choices'}
            </button>
          </form>
        )}
      </Area>
      <Area id="account" title="Signed in">
        <p>
          You are signed in as <strong>{session.provider.name}</strong> ({session.provider.email})
          on this browser. This sign-in ends by itself:{' '}
          <Deadline at={session.expires_at} words={{ ahead: 'in', past: 'ended' }} now={now} />.
        </p>
        <OutcomeLine outcome={leave.outcome} />
        <ActionButton
          label="Sign out"
          busyLabel="Signing out…"
          action={leave}
          work={async () => {
            await signOut();
            return null;
          }}
        />
      </Area>
    </>
  );
}
