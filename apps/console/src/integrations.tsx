import { ActionButton, ConfirmButton, LoadError, OutcomeLine } from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import { SCOPES, type Integration, type IssuedKey, type Scope, type StaffApi } from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import { idScreen } from './screens.tsx';
import { ColumnHeads, OnceSecret, ScopePicker, when } from './ui.tsx';

/** One integration: its scopes and keys; issue, revoke and rotate keys; test keys and test data. */
export const Integrations = idScreen({
  name: 'integrations',
  title: 'Integrations and keys',
  note: 'The staff API has no list of integrations here: open one by its id (an approved application shows it).',
  label: 'Integration id',
  View: IntegrationView,
});

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
      <ActionButton
        class="primary"
        label="Issue a key"
        action={action}
        work={async () => {
          const issued = await issue();
          setSecret(issued.api_key);
          reload();
          return `Issued key ${issued.key_id}.`;
        }}
      />{' '}
      <TestMode
        api={api}
        integration={data}
        action={action}
        onIssued={(secret) => {
          setSecret(secret);
          reload();
        }}
      />
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
                      action={action}
                      work={async () => {
                        const issued = await issue();
                        setSecret(issued.api_key);
                        await api.post(`/keys/${key.id}/revoke`);
                        reload();
                        return `Rotated: issued ${issued.key_id}, revoked ${key.id}.`;
                      }}
                    />{' '}
                    <ConfirmButton
                      label={`Revoke ${key.last4}`}
                      question={`Revoke …${key.last4}? Calls with it fail within a second.`}
                      danger
                      action={action}
                      work={async () => {
                        await api.post(`/keys/${key.id}/revoke`);
                        reload();
                        return `Revoked ${key.id}.`;
                      }}
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
      <ActionButton
        label="Save scopes"
        disabled={scopes === null || chosen.size === 0}
        action={action}
        work={async () => {
          await api.patch(`/integrations/${id}`, { scopes: SCOPES.filter((s) => chosen.has(s)) });
          setScopes(null);
          reload();
          return 'Scopes saved.';
        }}
      />
      <p class="note">
        Webhook endpoints (attempts, redelivery, secret rotation) are managed with the integration's
        own key; the staff API has no endpoints for them, so the console does not show them.
      </p>
    </div>
  );
}

interface TestDataDeletion {
  requests_deleted: number;
  has_more: boolean;
}

/**
 * Test mode: a test key (`hk_test_…`, on the integration's test twin, which owns its test data)
 * and, once it has one, deleting its test data.
 */
function TestMode(props: {
  api: StaffApi;
  integration: Integration;
  action: ReturnType<typeof useAction>;
  onIssued: (secret: string) => void;
}) {
  const { api, integration, action } = props;
  const twin = integration.test_integration_id;
  return (
    <>
      <ActionButton
        label="Issue a test key"
        action={action}
        work={async () => {
          const issued = await api.post<IssuedKey>(`/integrations/${integration.id}/keys`, {
            livemode: false,
          });
          props.onIssued(issued.api_key);
          return `Issued test key ${issued.key_id} (test data only; the simulated provider answers it).`;
        }}
      />{' '}
      {twin && (
        <ConfirmButton
          label="Delete test data"
          question="Delete every test request, test webhook endpoint and test event of this integration? Live data is untouched."
          danger
          action={action}
          work={async () => {
            const done = await api.delete<TestDataDeletion>(
              `/integrations/${integration.id}/test-data`,
            );
            return `Deleted ${done.requests_deleted} test requests${done.has_more ? '; more remain, delete again' : ''}.`;
          }}
        />
      )}
      {twin && (
        <p class="note">
          Test keys and test data belong to its test integration <span class="mono">{twin}</span>.
        </p>
      )}
    </>
  );
}
