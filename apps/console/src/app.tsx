import { useMemo, useState } from 'preact/hooks';
import { StaffApi, errorText } from './api.ts';
import { Applications } from './applications.tsx';
import { Audit } from './audit.tsx';
import { Categories } from './categories.tsx';
import { Disputes } from './disputes.tsx';
import { Integrations } from './integrations.tsx';
import { forgetKept } from './memory.ts';
import type { Go, Screen } from './navigation.ts';
import { Payments } from './payments.tsx';
import { Providers } from './providers.tsx';
import { Queues } from './queues.tsx';
import { RequestScreen } from './request.tsx';
import { Requests } from './requests.tsx';
import { Webhooks } from './webhooks.tsx';

const SCREENS: { id: Screen; label: string }[] = [
  { id: 'queues', label: 'Queues' },
  { id: 'requests', label: 'Requests' },
  { id: 'categories', label: 'Routing categories' },
  { id: 'applications', label: 'Applications' },
  { id: 'payments', label: 'Payments' },
  { id: 'disputes', label: 'Disputes' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'providers', label: 'Providers' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'request', label: 'Request' },
  { id: 'audit', label: 'Audit log' },
];

/** The staff console. The token lives in this component's state only: a reload signs out. */
export function App() {
  const [token, setToken] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [screen, setScreen] = useState<{ id: Screen; param: string }>({ id: 'queues', param: '' });
  const api = useMemo(
    () =>
      token
        ? new StaffApi(token, () => {
            setToken(null);
            setNotice('The API no longer accepts this token (expired or revoked): sign in again.');
          })
        : null,
    [token],
  );
  if (!api) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(t) => {
          setNotice(null);
          setToken(t);
        }}
      />
    );
  }
  const go: Go = (id, param = '') => setScreen({ id, param });
  return (
    <div class="shell">
      <header>
        <h1>Handoff staff</h1>
        <nav aria-label="Screens">
          <ul>
            {SCREENS.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  aria-current={screen.id === s.id ? 'page' : undefined}
                  onClick={() => go(s.id)}
                >
                  {s.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          class="signout"
          onClick={() => {
            forgetKept();
            setToken(null);
          }}
        >
          Sign out
        </button>
      </header>
      <main key={`${screen.id}:${screen.param}`}>
        {screen.id === 'queues' && <Queues api={api} go={go} />}
        {screen.id === 'requests' && <Requests api={api} go={go} initial={screen.param} />}
        {screen.id === 'categories' && <Categories api={api} go={go} />}
        {screen.id === 'applications' && <Applications api={api} go={go} />}
        {screen.id === 'payments' && <Payments api={api} go={go} />}
        {screen.id === 'disputes' && <Disputes api={api} go={go} />}
        {screen.id === 'integrations' && <Integrations api={api} initial={screen.param} />}
        {screen.id === 'providers' && <Providers api={api} />}
        {screen.id === 'webhooks' && <Webhooks api={api} initial={screen.param} />}
        {screen.id === 'request' && <RequestScreen api={api} initial={screen.param} />}
        {screen.id === 'audit' && <Audit api={api} />}
      </main>
    </div>
  );
}

/**
 * Sign-in with a staff JWT: in development the one `npm start` prints, in production one from
 * the identity provider behind STAFF_JWKS_URL. The token is checked with one staff call before
 * the console opens; an agent or provider key is refused there like anywhere in /v1/staff.
 */
function SignIn(props: { notice: string | null; onSignedIn: (token: string) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main class="signin">
      <h1>Handoff staff console</h1>
      {props.notice && <p role="status">{props.notice}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const token = value.trim();
          setBusy(true);
          setError(null);
          new StaffApi(token)
            .get('/access-applications', { limit: '1' })
            .then(
              () => {
                setValue('');
                props.onSignedIn(token);
              },
              (failure: unknown) => setError(`Not signed in: ${errorText(failure)}`),
            )
            .finally(() => setBusy(false));
        }}
      >
        <label class="field">
          <span>Staff token (JWT)</span>
          <textarea
            name="token"
            rows={4}
            required
            autoComplete="off"
            spellcheck={false}
            value={value}
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="primary" disabled={busy || value.trim() === ''}>
          Sign in
        </button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="note">
        The token stays in this page's memory only: reloading or closing the page signs you out.
      </p>
    </main>
  );
}
