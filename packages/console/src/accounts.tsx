import { useState } from 'preact/hooks';
import {
  SCOPES,
  type Integration,
  type IssuedKey,
  type IssuedProviderKey,
  type Provider,
  type ProviderList,
  type ProviderSessionList,
  type Scope,
  type StaffApi,
} from './api.ts';
import {
  ColumnHeads,
  ConfirmButton,
  Field,
  IdScreen,
  LoadError,
  OnceSecret,
  OutcomeLine,
  ScopePicker,
  useAction,
  useLoad,
  when,
} from './ui.tsx';

/** One integration: its scopes and keys; issue, revoke and rotate keys. */
export function Integrations({ api, initial }: { api: StaffApi; initial: string }) {
  return (
    <IdScreen
      name="integrations"
      title="Integrations and keys"
      note="The staff API has no list of integrations here: open one by its id (an approved application shows it)."
      label="Integration id"
      initial={initial}
      view={(id) => <IntegrationView key={id} api={api} id={id} />}
    />
  );
}

function IntegrationView({ api, id }: { api: StaffApi; id: string }) {
  const { data, error, reload } = useLoad(() => api.get<Integration>(`/integrations/${id}`), [id]);
  const [secret, setSecret] = useState<string | null>(null);
  const [scopes, setScopes] = useState<Set<Scope> | null>(null);
  const action = useAction();
  if (error) return <LoadError error={error} />;
  if (!data) return <p>Loading…</p>;
  const chosen = scopes ?? new Set(data.scopes);
  const issue = () => api.post<IssuedKey>(`/integrations/${id}/keys`, {});
  return (
    <div>
      <h3>
        {data.app_name} <span class="mono muted">{data.id}</span>
      </h3>
      {secret && <OnceSecret label="New agent key" value={secret} onDone={() => setSecret(null)} />}
      <OutcomeLine outcome={action.outcome} />
      <button
        type="button"
        class="primary"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            const issued = await issue();
            setSecret(issued.api_key);
            reload();
            return `Issued key ${issued.key_id}.`;
          })
        }
      >
        Issue a key
      </button>
      <table>
        <caption>Keys (prefix and last four only)</caption>
        <ColumnHeads names={['Key', 'Status', 'Created', 'Expires', 'Actions']} />
        <tbody>
          {data.keys.map((key) => (
            <tr key={key.id}>
              <td class="mono">
                {key.prefix}…{key.last4} <span class="muted">{key.id}</span>
              </td>
              <td>{key.status}</td>
              <td>{when(key.created_at)}</td>
              <td>{when(key.expires_at)}</td>
              <td>
                {key.status === 'active' && (
                  <>
                    <ConfirmButton
                      label={`Rotate ${key.last4}`}
                      question={`Issue a new key and revoke …${key.last4} at once?`}
                      disabled={action.busy}
                      onConfirm={() =>
                        void action.run(async () => {
                          const issued = await issue();
                          setSecret(issued.api_key);
                          await api.post(`/keys/${key.id}/revoke`);
                          reload();
                          return `Rotated: issued ${issued.key_id}, revoked ${key.id}.`;
                        })
                      }
                    />{' '}
                    <ConfirmButton
                      label={`Revoke ${key.last4}`}
                      question={`Revoke …${key.last4}? Calls with it fail within a second.`}
                      danger
                      disabled={action.busy}
                      onConfirm={() =>
                        void action.run(async () => {
                          await api.post(`/keys/${key.id}/revoke`);
                          reload();
                          return `Revoked ${key.id}.`;
                        })
                      }
                    />
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ScopePicker
        legend="Scopes (every key follows a change at once)"
        chosen={chosen}
        onChange={setScopes}
      />
      <button
        type="button"
        disabled={action.busy || scopes === null || chosen.size === 0}
        onClick={() =>
          void action.run(async () => {
            await api.patch(`/integrations/${id}`, { scopes: SCOPES.filter((s) => chosen.has(s)) });
            setScopes(null);
            reload();
            return 'Scopes saved.';
          })
        }
      >
        Save scopes
      </button>
      <p class="note">
        Webhook endpoints (attempts, redelivery, secret rotation) are managed with the integration's
        own key; the staff API has no endpoints for them, so the console does not show them.
      </p>
    </div>
  );
}

/** Providers: onboard one, issue and revoke its keys, suspend or reactivate it. */
export function Providers({ api }: { api: StaffApi }) {
  const [open, setOpen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [categories, setCategories] = useState('');
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
              {p.email} · {p.status} · {(p.categories as string[]).join(', ')}
            </p>
            {open === p.id ? (
              <ProviderView api={api} id={p.id} done={reload} />
            ) : (
              <button type="button" onClick={() => setOpen(p.id)}>
                Keys of {p.name}
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
          void action.run(async () => {
            const created = await api.post<Provider>('/providers', {
              name,
              email,
              categories: categories
                .split(',')
                .map((c) => c.trim())
                .filter(Boolean),
            });
            setName('');
            setEmail('');
            setCategories('');
            reload();
            return `Onboarded ${created.name}.`;
          });
        }}
      >
        <h3 id="onboard-title">Onboard a provider</h3>
        <Field label="Name">
          <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field label="Email">
          <input
            type="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
        <Field label="Categories (comma-separated)">
          <input
            required
            value={categories}
            onInput={(e) => setCategories(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" disabled={action.busy}>
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
  return (
    <div class="decide">
      {secret && (
        <OnceSecret label="New provider key" value={secret} onDone={() => setSecret(null)} />
      )}
      <OutcomeLine outcome={action.outcome} />
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            const issued = await api.post<IssuedProviderKey>(`/providers/${id}/keys`, {});
            setSecret(issued.api_key);
            return after(`Issued provider key ${issued.key_id}.`);
          })
        }
      >
        Issue a provider key
      </button>{' '}
      <ConfirmButton
        label={data.status === 'active' ? 'Suspend provider' : 'Reactivate provider'}
        question={
          data.status === 'active' ? 'Suspend? Its keys stop working at once.' : 'Reactivate?'
        }
        danger={data.status === 'active'}
        disabled={action.busy}
        onConfirm={() =>
          void action.run(async () => {
            const status = data.status === 'active' ? 'suspended' : 'active';
            await api.patch(`/providers/${id}`, { status });
            return after(`Provider is ${status}.`);
          })
        }
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
                disabled={action.busy}
                onConfirm={() =>
                  void action.run(async () => {
                    await api.post(`/provider-keys/${key.id}/revoke`);
                    return after(`Revoked ${key.id}.`);
                  })
                }
              />
            )}
          </li>
        ))}
      </ul>
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
              disabled={action.busy}
              onConfirm={() =>
                void action.run(async () => {
                  await api.post(`/provider-sessions/${session.id}/revoke`);
                  return after('The session has ended.');
                })
              }
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
