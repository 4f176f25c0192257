import {
  ActionButton,
  ConfirmButton,
  Field,
  LoadError,
  OutcomeLine,
  TextField,
} from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import type {
  IssuedProviderKey,
  Provider,
  ProviderList,
  ProviderSessionList,
  StaffApi,
} from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import { useKept } from './memory.ts';
import {
  NEW_PROFILE,
  profileBody,
  ProfileFields,
  ProfileForm,
  type ProfileDraft,
} from './provider-profile.tsx';
import { OnceSecret, when } from './ui.tsx';

const NEW_PROVIDER: ProfileDraft & { name: string; email: string } = {
  name: '',
  email: '',
  ...NEW_PROFILE,
};

/** What the rules see of a provider: how much it holds of its capacity, its score, its languages. */
const routingLine = (p: Provider) =>
  `Holds ${p.load} of ${p.capacity} · score ${p.routing_score.score.toFixed(2)} · ` +
  `${p.availability === 'available' ? 'available' : 'away'} · ` +
  `${p.languages.length > 0 ? p.languages.join(', ') : 'any language'}`;

/**
 * Providers: onboard one, its routing profile (what the rules read), issue and revoke its keys,
 * suspend or reactivate it.
 */
export function Providers({ api }: { api: StaffApi }) {
  const [open, setOpen] = useState<string | null>(null);
  const [draft, setDraft] = useKept('providers.new', NEW_PROVIDER);
  const checked = profileBody(draft);
  const action = useAction();
  const { data, error, reload } = useLoad(
    () => api.get<ProviderList>('/providers', { limit: '100' }),
    [api],
  );
  return (
    <section aria-labelledby="providers-title">
      <h2 id="providers-title">Providers</h2>
      <LoadError error={error} />
      <ul class="cards">
        {data?.data.map((p) => (
          <li key={p.id} class="card">
            <h3>
              {p.name} <span class="mono muted">{p.id}</span>
            </h3>
            <p class="muted">
              {p.email} · {p.status} · {p.categories.join(', ')}
            </p>
            <p class="muted">{routingLine(p)}</p>
            {open === p.id ? (
              <ProviderView api={api} id={p.id} done={reload} />
            ) : (
              <button type="button" onClick={() => setOpen(p.id)}>
                Profile and keys of {p.name}
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        class="card"
        aria-labelledby="onboard-title"
        onSubmit={(e) => {
          e.preventDefault();
          if ('problem' in checked) return;
          void action.run(async () => {
            const created = await api.post<Provider>('/providers', {
              name: draft.name,
              email: draft.email,
              ...checked.body,
            });
            setDraft(NEW_PROVIDER);
            reload();
            return `Onboarded ${created.name}.`;
          });
        }}
      >
        <h3 id="onboard-title">Onboard a provider</h3>
        <TextField
          label="Name"
          required
          value={draft.name}
          onValue={(name) => setDraft({ ...draft, name })}
        />
        <Field label="Email">
          <input
            type="email"
            required
            value={draft.email}
            onInput={(e) => setDraft({ ...draft, email: e.currentTarget.value })}
          />
        </Field>
        <ProfileFields draft={draft} onDraft={(profile) => setDraft({ ...draft, ...profile })} />
        {'problem' in checked && <p class="note">{checked.problem}</p>}
        <button type="submit" disabled={action.busy || 'problem' in checked}>
          Onboard
        </button>
        <OutcomeLine outcome={action.outcome} />
      </form>
    </section>
  );
}

function ProviderView({ api, id, done }: { api: StaffApi; id: string; done: () => void }) {
  const { data, error, reload } = useLoad(() => api.get<Provider>(`/providers/${id}`), [id]);
  const sessions = useLoad(
    () => api.get<ProviderSessionList>(`/providers/${id}/sessions`, { status: 'active' }),
    [id],
  );
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();
  if (error) return <LoadError error={error} />;
  if (!data) return <p>Loading…</p>;
  const after = (text: string) => {
    reload();
    sessions.reload();
    done();
    return text;
  };
  const revoke = (path: string, text: string) => async () => {
    await api.post(path);
    return after(text);
  };
  return (
    <div class="decide">
      {secret && (
        <OnceSecret label="New provider key" value={secret} onDone={() => setSecret(null)} />
      )}
      <OutcomeLine outcome={action.outcome} />
      <ActionButton
        label="Issue a provider key"
        action={action}
        work={async () => {
          const issued = await api.post<IssuedProviderKey>(`/providers/${id}/keys`, {});
          setSecret(issued.api_key);
          return after(`Issued provider key ${issued.key_id}.`);
        }}
      />{' '}
      <ConfirmButton
        label={data.status === 'active' ? 'Suspend provider' : 'Reactivate provider'}
        question={
          data.status === 'active' ? 'Suspend? Its keys stop working at once.' : 'Reactivate?'
        }
        danger={data.status === 'active'}
        action={action}
        work={async () => {
          const status = data.status === 'active' ? 'suspended' : 'active';
          await api.patch(`/providers/${id}`, { status });
          return after(`Provider is ${status}.`);
        }}
      />
      <ul>
        {data.keys.map((key) => (
          <li key={key.id}>
            <span class="mono">
              {key.prefix}…{key.last4}
            </span>{' '}
            {key.status}, expires {when(key.expires_at)}{' '}
            {key.status === 'active' && (
              <ConfirmButton
                label={`Revoke ${key.last4}`}
                question={`Revoke …${key.last4}?`}
                danger
                action={action}
                work={revoke(`/provider-keys/${key.id}/revoke`, `Revoked ${key.id}.`)}
              />
            )}
          </li>
        ))}
      </ul>
      <ProfileForm api={api} provider={data} saved={() => after('')} />
      <h4>Signed in to the workspace</h4>
      {sessions.error && <LoadError error={sessions.error} />}
      {sessions.data && sessions.data.data.length === 0 && <p>Not signed in anywhere.</p>}
      <ul>
        {(sessions.data?.data ?? []).map((session) => (
          <li key={session.id}>
            Since {when(session.created_at)}, until {when(session.expires_at)}
            {session.user_agent ? ` (${browserName(session.user_agent)})` : ''}{' '}
            <ConfirmButton
              label="Sign out"
              question="End this session? The provider must sign in again."
              danger
              action={action}
              work={revoke(`/provider-sessions/${session.id}/revoke`, 'The session has ended.')}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A browser's name as a person reads it, from its User-Agent. */
function browserName(userAgent: string): string {
  for (const [pattern, name] of [
    [/Edg\//, 'Edge'],
    [/Firefox\//, 'Firefox'],
    [/Chrome\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ] as const) {
    if (pattern.test(userAgent)) return name;
  }
  return 'a browser';
}
