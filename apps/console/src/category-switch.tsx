import { ConfirmButton, LoadError, OutcomeLine, TextField } from '@handoff/web-ui';
import type { CategoryList, CategoryRouting, StaffApi } from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import { useKept } from './memory.ts';
import { when } from './ui.tsx';

type PauseState = Pick<
  CategoryRouting,
  'category' | 'paused' | 'pause_reason' | 'paused_by' | 'paused_at'
>;

/** Whether the rules route a category's requests now, and why not when paused. */
export const pauseText = (c: PauseState): string =>
  c.paused
    ? `Paused since ${when(c.paused_at)}${c.paused_by ? ` by ${c.paused_by}` : ''}` +
      (c.pause_reason ? `: ${c.pause_reason.replace(/[.!?]$/, '')}.` : '.')
    : 'On: the rules offer its new requests to its providers.';

/** Pausing or resuming automatic routing of one category, with a reason, after confirming. */
export function PauseControl(props: { api: StaffApi; state: PauseState; changed: () => void }) {
  const { category, paused } = props.state;
  const action = useAction();
  const [reason, setReason] = useKept(`category.reason.${category}`, '');
  const verb = paused ? 'Resume' : 'Pause';
  return (
    <div class="pause">
      <p>Automatic routing: {pauseText(props.state)}</p>
      <TextField
        label={`Reason to ${verb.toLowerCase()} it (required, kept in the audit log)`}
        value={reason}
        onValue={setReason}
      />
      <ConfirmButton
        label={`${verb} automatic routing of ${category}`}
        question={
          paused
            ? `Resume automatic routing of ${category}? The rules offer its new requests again.`
            : `Pause automatic routing of ${category}? Its new requests then wait for staff.`
        }
        confirmLabel={`Yes, ${verb.toLowerCase()} it`}
        danger={!paused}
        disabled={reason.trim() === ''}
        action={action}
        work={async () => {
          await props.api.patch(`/routing/categories/${category}`, {
            paused: !paused,
            reason: reason.trim(),
          });
          setReason('');
          props.changed();
          return paused ? `Resumed automatic routing of ${category}.` : `Paused ${category}.`;
        }}
      />
      <OutcomeLine outcome={action.outcome} />
    </div>
  );
}

/** The request's category on the routing panel: paused or not, and the switch. */
export function CategorySwitch(props: {
  api: StaffApi;
  category: string | null;
  changed: () => void;
}) {
  const { api, category } = props;
  const list = useLoad(
    () => (category ? api.get<CategoryList>('/routing/categories') : Promise.resolve(null)),
    [api, category],
  );
  if (!category) return <p>This request has no category: the rules cannot route it.</p>;
  const found = list.data?.data.find((c) => c.category === category);
  const state: PauseState = found ?? {
    category,
    paused: false,
    pause_reason: null,
    paused_by: null,
    paused_at: null,
  };
  return (
    <fieldset>
      <legend>Automatic routing of every request of {category}</legend>
      <LoadError error={list.error} />
      {list.data && (
        <PauseControl
          api={api}
          state={state}
          changed={() => {
            list.reload();
            props.changed();
          }}
        />
      )}
    </fieldset>
  );
}
