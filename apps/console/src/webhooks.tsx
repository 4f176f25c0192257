import { ConfirmButton, LoadError, OutcomeLine, TextField } from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import type {
  AttemptList,
  EndpointList,
  IntegrationList,
  Redelivery,
  RotatedSecret,
  StaffApi,
} from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import { IdScreen } from './screens.tsx';
import { ColumnHeads, OnceSecret, when } from './ui.tsx';

/**
 * An integration's webhook endpoints: their recent delivery attempts, secret rotation (the new
 * secret is shown once and forgotten) and redelivery of an event. Both actions are audited.
 */
export function Webhooks({ api, initial }: { api: StaffApi; initial: string }) {
  // An integration id, typed or picked from the newest integrations.
  const { data } = useLoad(() => api.get<IntegrationList>('/integrations', { limit: '100' }), []);
  return (
    <IdScreen
      name="webhooks"
      title="Webhooks"
      label="Integration id"
      initial={initial}
      suggestions={{
        id: 'webhook-integrations',
        options: (data?.data ?? []).map((i) => ({ value: i.id, label: i.app_name })),
      }}
      view={(id) => <EndpointsView key={id} api={api} integration={id} />}
    />
  );
}

function EndpointsView({ api, integration }: { api: StaffApi; integration: string }) {
  const base = `/integrations/${integration}`;
  const { data, error, reload } = useLoad(
    () => api.get<EndpointList>(`${base}/webhook-endpoints`, { limit: '100' }),
    [integration],
  );
  const [open, setOpen] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ endpoint: string; value: string } | null>(null);
  const action = useAction();
  if (error) return <LoadError error={error} />;
  if (!data) return <p>Loading…</p>;
  return (
    <div>
      {secret && (
        <OnceSecret
          label={`New signing secret of ${secret.endpoint}`}
          value={secret.value}
          onDone={() => setSecret(null)}
        />
      )}
      <OutcomeLine outcome={action.outcome} />
      {data.data.length === 0 ? (
        <p>This integration has no webhook endpoints.</p>
      ) : (
        <table>
          <caption>Webhook endpoints of {integration}</caption>
          <ColumnHeads
            names={['URL', 'Enabled', 'Event types', 'Previous secret signs until', 'Actions']}
          />
          <tbody>
            {data.data.map((e) => (
              <tr key={e.id}>
                <td class="mono">
                  {e.url} <span class="muted">{e.id}</span>
                </td>
                <td>{e.enabled ? 'yes' : `no (${e.disabled_reason ?? 'disabled'})`}</td>
                <td>{e.event_types.join(', ')}</td>
                <td>{when(e.previous_secret_expires_at)}</td>
                <td>
                  <button
                    type="button"
                    aria-expanded={open === e.id}
                    onClick={() => setOpen(open === e.id ? null : e.id)}
                  >
                    Attempts of {e.id}
                  </button>{' '}
                  <ConfirmButton
                    label={`Rotate secret of ${e.id}`}
                    question="Issue a new signing secret? The old one keeps signing for 24 hours."
                    action={action}
                    work={async () => {
                      const rotated = await api.post<RotatedSecret>(
                        `${base}/webhook-endpoints/${e.id}/rotate-secret`,
                        {},
                      );
                      setSecret({ endpoint: e.id, value: rotated.secret });
                      reload();
                      return `Rotated the secret of ${e.id}; the previous one signs until ${when(rotated.previous_secret_expires_at)}.`;
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <Attempts key={open} api={api} base={base} endpoint={open} />}
      <Redeliver api={api} base={base} />
    </div>
  );
}

function Attempts({ api, base, endpoint }: { api: StaffApi; base: string; endpoint: string }) {
  const { data, error, reload } = useLoad(
    () => api.get<AttemptList>(`${base}/webhook-endpoints/${endpoint}/attempts`, { limit: '25' }),
    [endpoint],
  );
  if (error) return <LoadError error={error} />;
  if (!data) return <p>Loading…</p>;
  return (
    <div>
      <table>
        <caption>Recent attempts to {endpoint}</caption>
        <ColumnHeads names={['Time', 'Event', 'Try', 'Status code', 'Error', 'Duration']} />
        <tbody>
          {data.data.map((a) => (
            <tr key={a.id}>
              <td>{when(a.attempted_at)}</td>
              <td class="mono">
                {a.event_type} <span class="muted">{a.event_id}</span>
              </td>
              <td>{a.attempt}</td>
              <td>{a.status_code ?? '—'}</td>
              <td>{a.error ?? '—'}</td>
              <td>{Math.round(a.duration_ms)} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.data.length === 0 && <p>No attempts yet.</p>}
      <button type="button" onClick={reload}>
        Refresh attempts
      </button>
    </div>
  );
}

/** Delivers an event again (same `webhook-id`) to the endpoints subscribed to its type. */
function Redeliver({ api, base }: { api: StaffApi; base: string }) {
  const [event, setEvent] = useState('');
  const action = useAction();
  return (
    <form
      class="inline"
      aria-label="Redeliver an event"
      onSubmit={(e) => {
        e.preventDefault();
        const id = event.trim();
        void action.run(async () => {
          const done = await api.post<Redelivery>(`${base}/events/${id}/redeliver`);
          return `Redelivering ${done.event_id} to ${done.endpoints} endpoint(s).`;
        });
      }}
    >
      <TextField label="Event id to redeliver" class="mono" value={event} onValue={setEvent} />
      <button type="submit" disabled={action.busy || event.trim() === ''}>
        Redeliver
      </button>
      <OutcomeLine outcome={action.outcome} />
    </form>
  );
}
