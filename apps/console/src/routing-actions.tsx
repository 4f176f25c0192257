import { ConfirmButton, Field, LoadError, OutcomeLine, TextField } from '@handoff/web-ui';
import type { JSX } from 'preact';
import type {
  ProviderList,
  RoutingAction,
  RoutingSuggestions,
  StaffApi,
  StaffRequest,
} from './api.ts';
import { CategorySwitch } from './category-switch.tsx';
import { useAction, useLoad } from './hooks.ts';
import { useKept } from './memory.ts';
import { learnNames } from './names.ts';
import { Candidates, Excluded } from './candidates.tsx';
import { pendingOffer } from './words.ts';

/**
 * Staff's hand in one request's routing, each with a reason for the audit log and a confirmation:
 * offer it to a provider (a suggested one or any by id), run the rules again, or stop them; and
 * pausing or resuming automatic routing of its whole category.
 */
export function RoutingActions(props: {
  api: StaffApi;
  request: StaffRequest;
  changed: () => void;
}) {
  const { api, request } = props;
  const { id } = request;
  const action = useAction();
  const [reason, setReason] = useKept(`routing.reason.${id}`, '');
  const suggestions = useLoad(async () => {
    const found = await api.get<RoutingSuggestions>(`/requests/${id}/routing/suggestions`);
    learnNames(found.candidates);
    return found;
  }, [api, id, request.updated_at]);
  const missing = reason.trim() === '';
  const withdrawn = pendingOffer(request.automatic_routing)
    ? ' The offer waiting for an answer is withdrawn.'
    : '';
  const override = (body: RoutingAction, text: string) => async () => {
    await api.post<StaffRequest>(`/requests/${id}/routing`, { ...body, reason: reason.trim() });
    setReason('');
    props.changed();
    suggestions.reload();
    return text;
  };
  const offer = (providerId: string, name: string, label = `Offer to ${name}`) => (
    <ConfirmButton
      label={label}
      question={`Offer this request to ${name} now, whatever the rules say?${withdrawn}`}
      confirmLabel="Yes, offer it"
      disabled={missing}
      action={action}
      work={override({ action: 'offer', provider_id: providerId }, `Offered it to ${name}.`)}
    />
  );
  return (
    <>
      <fieldset class="routing-actions">
        <legend>Take a hand in this request's routing</legend>
        <TextField
          label="Reason (required, kept in the audit log)"
          value={reason}
          onValue={setReason}
        />
        {missing && <p class="note">Write a reason first: every action below needs one.</p>}
        <OutcomeLine outcome={action.outcome} />
        <h4>Suggested providers now</h4>
        <LoadError error={suggestions.error} />
        {suggestions.data && (
          <>
            <p>{suggestions.data.summary}</p>
            <Candidates
              label="Suggested providers"
              candidates={suggestions.data.candidates}
              act={(c) => offer(c.provider_id, c.name)}
            />
            <Excluded excluded={suggestions.data.excluded} />
          </>
        )}
        <OfferById
          api={api}
          requestId={id}
          category={request.category}
          offer={(providerId, name) => offer(providerId, name, 'Offer to this provider')}
        />
        <h4>The rules</h4>
        <div class="actions">
          <ConfirmButton
            label="Run the rules again"
            question={`Run the rules again from the start, with a fresh count of offers?${withdrawn}`}
            confirmLabel="Yes, run them"
            disabled={missing}
            action={action}
            work={override({ action: 'rerun' }, 'The rules ran again.')}
          />
          <ConfirmButton
            label="Stop automatic routing"
            question={`Stop automatic routing of this request? Staff then route it by hand.${withdrawn}`}
            confirmLabel="Yes, stop it"
            danger
            disabled={missing}
            action={action}
            work={override({ action: 'stop' }, 'Automatic routing of this request stopped.')}
          />
        </div>
      </fieldset>
      <CategorySwitch
        api={api}
        category={request.category}
        changed={() => {
          props.changed();
          suggestions.reload();
        }}
      />
    </>
  );
}

/** Offering the request to any provider, by its id (those of the category are offered to pick). */
function OfferById(props: {
  api: StaffApi;
  requestId: string;
  category: string | null;
  offer: (providerId: string, name: string) => JSX.Element;
}) {
  const { api, category } = props;
  const [providerId, setProviderId] = useKept(`routing.provider.${props.requestId}`, '');
  const providers = useLoad(
    () =>
      category
        ? api.get<ProviderList>('/providers', { category, status: 'active', limit: '100' })
        : Promise.resolve(null),
    [api, category],
  );
  const chosen = providerId.trim();
  const name = providers.data?.data.find((p) => p.id === chosen)?.name ?? chosen;
  return (
    <div class="inline">
      <Field label="Or another provider: its id (those of the category are listed)">
        <input
          class="mono"
          list="category-providers"
          value={providerId}
          autoComplete="off"
          onInput={(e) => setProviderId(e.currentTarget.value)}
        />
      </Field>
      <datalist id="category-providers">
        {providers.data?.data.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </datalist>
      {chosen ? (
        props.offer(chosen, name)
      ) : (
        <button type="button" disabled>
          Offer to this provider
        </button>
      )}
    </div>
  );
}
