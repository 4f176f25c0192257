import { ENGAGEMENT_LIMITS } from '@handoff/contracts';
import { Field, TextArea, TextField } from '@handoff/web-ui';
import type { Currency, RequestDetail } from './api.ts';
import { DraftForm } from './forms.tsx';
import {
  CURRENCIES,
  EMPTY_PROPOSAL,
  toBody,
  type PlanRow,
  type ProposalForm,
} from './proposal-form.ts';
import { useSession } from './session.ts';

/** The proposal form: what the provider will do, for how much, in how long, and in which steps. */
export function NewProposal(props: { request: RequestDetail; onSent: () => void }) {
  const { client } = useSession();
  return (
    <DraftForm
      draft={`proposal.${props.request.id}`}
      empty={EMPTY_PROPOSAL}
      class="card"
      aria-labelledby="new-proposal"
      check={(form) => {
        const body = toBody(form);
        return typeof body === 'string'
          ? body
          : () => client.requests.propose(props.request.id, body);
      }}
      onSent={props.onSent}
      send={{ label: 'Send proposal', busyLabel: 'Sending…', primary: true }}
    >
      {(form, set) => (
        <>
          <h3 id="new-proposal">Make a proposal</h3>
          <TextArea
            label="What you will do"
            hint="The customer reads this first."
            rows={4}
            maxLength={ENGAGEMENT_LIMITS.text}
            value={form.message}
            onValue={(message) => set({ message })}
          />
          <Terms form={form} set={set} />
          <Plan plan={form.plan} onPlan={(plan) => set({ plan })} />
        </>
      )}
    </DraftForm>
  );
}

/** The price, its currency and the time the whole work takes. */
function Terms(props: { form: ProposalForm; set: (change: Partial<ProposalForm>) => void }) {
  const { form, set } = props;
  return (
    <div class="row">
      <TextField
        label="Price"
        inputMode="decimal"
        autoComplete="off"
        value={form.amount}
        onValue={(amount) => set({ amount })}
      />
      <Field label="Currency">
        <select
          value={form.currency}
          onChange={(event) => set({ currency: event.currentTarget.value as Currency })}
        >
          {CURRENCIES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </Field>
      <TextField
        label="Time needed, in days"
        hint="Optional"
        inputMode="numeric"
        autoComplete="off"
        value={form.days}
        onValue={(days) => set({ days })}
      />
    </div>
  );
}

/** A step's optional numbers: its amount, and the days after the start it is due. */
const STEP_NUMBERS = [
  ['amount', 'Amount', 'decimal'],
  ['days', 'Due after, in days', 'numeric'],
] as const;

/** The steps the customer approves one by one, each with its amount and time. */
function Plan(props: { plan: PlanRow[]; onPlan: (plan: PlanRow[]) => void }) {
  const { plan, onPlan } = props;
  const setRow = (index: number, change: Partial<PlanRow>) =>
    onPlan(plan.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset>
      <legend>Milestones (optional)</legend>
      <p class="hint">
        Split the work into steps the customer approves one by one. Without any, you can add them
        once the job starts.
      </p>
      {plan.map((row, index) => (
        <div class="plan-row" key={index} role="group" aria-label={`Milestone ${index + 1}`}>
          <TextField
            label={`Milestone ${index + 1}: title`}
            maxLength={ENGAGEMENT_LIMITS.title}
            value={row.title}
            onValue={(title) => setRow(index, { title })}
          />
          {STEP_NUMBERS.map(([key, label, inputMode]) => (
            <TextField
              key={key}
              label={label}
              hint="Optional"
              inputMode={inputMode}
              value={row[key]}
              onValue={(value) => setRow(index, { [key]: value })}
            />
          ))}
          <button
            type="button"
            class="quiet"
            onClick={() => onPlan(plan.filter((_, i) => i !== index))}
          >
            Remove milestone {index + 1}
          </button>
        </div>
      ))}
      {plan.length < ENGAGEMENT_LIMITS.plan_milestones && (
        <button
          type="button"
          class="quiet"
          onClick={() => onPlan([...plan, { title: '', amount: '', days: '' }])}
        >
          Add a milestone
        </button>
      )}
    </fieldset>
  );
}
