import { ActionButton, OutcomeLine, TextArea } from '@handoff/web-ui';
import { useState } from 'preact/hooks';
import {
  SCOPES,
  type Application,
  type ApplicationList,
  type Scope,
  type StaffApi,
} from './api.ts';
import { useAction } from './hooks.ts';
import type { Go } from './navigation.ts';
import { Opener, QueueScreen, useQueue } from './screens.tsx';
import { ScopePicker, when } from './ui.tsx';

/** Access applications: approve with the scopes staff choose, or reject with a reason. */
export function Applications({ api, go }: { api: StaffApi; go: Go }) {
  const queue = useQueue(
    'submitted',
    (status) => api.get<ApplicationList>('/access-applications', { status, limit: '100' }),
    [api],
  );
  return (
    <QueueScreen
      name="applications"
      title="Access applications"
      statuses={['submitted', 'approved', 'rejected']}
      queue={queue}
      empty={`No ${queue.status} applications.`}
      card={(application) => (
        <li key={application.id} class="card">
          <h3>
            {application.app_name} <span class="mono muted">{application.id}</span>
          </h3>
          <p>{application.description}</p>
          <p class="muted">
            {application.contact_email} · {when(application.created_at)} · {application.status}
          </p>
          {application.integration_id && (
            <button
              type="button"
              onClick={() => go('integrations', application.integration_id ?? '')}
            >
              Integration {application.integration_id}
            </button>
          )}
          {application.status === 'submitted' && (
            <Opener
              open={queue.open === application.id}
              label={`Decide on ${application.app_name}`}
              onOpen={() => queue.setOpen(application.id)}
            >
              <Decide
                api={api}
                application={application as Application}
                done={(text) => {
                  queue.setOpen(null);
                  queue.decided(text);
                }}
              />
            </Opener>
          )}
        </li>
      )}
    />
  );
}

function Decide(props: { api: StaffApi; application: Application; done: (text: string) => void }) {
  const { application } = props;
  const [scopes, setScopes] = useState<Set<Scope>>(new Set(application.requested_scopes));
  const [reason, setReason] = useState('');
  const action = useAction();
  return (
    <div class="decide">
      <ScopePicker
        legend="Scopes to grant (requested ones are ticked)"
        chosen={scopes}
        requested={application.requested_scopes}
        onChange={setScopes}
      />
      <ActionButton
        class="primary"
        label={<>Approve with {scopes.size} scopes</>}
        disabled={scopes.size === 0}
        action={action}
        work={async () => {
          const approved = await props.api.post<Application>(
            `/access-applications/${application.id}/approve`,
            { scopes: SCOPES.filter((s) => scopes.has(s)) },
          );
          const text = `Approved ${application.app_name}; integration ${approved.integration_id ?? ''}.`;
          props.done(text);
          return text;
        }}
      />
      <TextArea
        label="Reason for rejection (the applicant sees it)"
        rows={2}
        value={reason}
        onValue={setReason}
      />
      <ActionButton
        class="danger"
        label="Reject"
        disabled={reason.trim() === ''}
        action={action}
        work={async () => {
          await props.api.post(`/access-applications/${application.id}/reject`, { reason });
          props.done(`Rejected ${application.app_name}.`);
          return 'Rejected.';
        }}
      />
      <OutcomeLine outcome={action.outcome} errorsOnly />
    </div>
  );
}
