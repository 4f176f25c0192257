import { useState } from 'preact/hooks';
import {
  all,
  type Currency,
  type Proposal,
  type ProposalCreate,
  type RequestDetail,
} from './api.ts';
import {
  Ago,
  Area,
  ConfirmButton,
  Deadline,
  Field,
  LoadError,
  OutcomeLine,
  useAction,
  useDraftForm,
  useLoad,
  useNotice,
  useSession,
} from './ui.tsx';
import { money, PROPOSAL_STATUS } from './words.ts';

/** The currencies offered first; the API takes any ISO 4217 code. */
const CURRENCIES: Currency[] = [
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'NZD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'JPY',
  'INR',
  'SGD',
  'HKD',
  'ZAR',
  'BRL',
  'MXN',
];

const EXPIRES = { ahead: 'it expires in', past: 'it expired ago' };

interface PlanRow {
  title: string;
  amount: string;
  days: string;
}
interface ProposalForm {
  message: string;
  amount: string;
  currency: Currency;
  days: string;
  plan: PlanRow[];
}
const EMPTY: ProposalForm = { message: '', amount: '', currency: 'USD', days: '', plan: [] };

/** The provider's proposals on the request: the open or accepted one, a form, earlier ones. */
export function ProposalArea(props: { request: RequestDetail; tick: number; now: number }) {
  const { request, now } = props;
  const { client } = useSession();
  const proposals = useLoad(
    async () =>
      (await all(client.proposals.list({ request_id: request.id }))).sort((a, b) =>
        b.created_at.localeCompare(a.created_at),
      ),
    [request.id, props.tick],
  );
  const withdraw = useAction();
  const list = proposals.data;
  const current = list?.find((p) => p.status === 'submitted' || p.status === 'accepted');
  const notice = useNotice(current?.status ?? 'none');
  const earlier = list?.filter((p) => p !== current) ?? [];
  const open = request.status === 'submitted' || request.status === 'routed';
  return (
    <Area id="proposal" title="Your proposal">
      <LoadError error={proposals.error} />
      {list === null && !proposals.error && <p role="status">Loading your proposals…</p>}
      {current && (
        <article class="card" aria-labelledby="current-proposal">
          <h3 id="current-proposal">
            {money(current.amount, current.currency)}: {PROPOSAL_STATUS[current.status]}
          </h3>
          <ProposalFacts proposal={current} now={now} />
          {current.status === 'submitted' && (
            <>
              {current.deadline_at && (
                <p>
                  If the customer does not decide,{' '}
                  <Deadline at={current.deadline_at} words={EXPIRES} now={now} />.
                </p>
              )}
              <ConfirmButton
                label="Withdraw proposal"
                question="Withdraw this proposal? The customer can no longer accept it."
                confirmLabel="Yes, withdraw it"
                disabled={withdraw.busy}
                onConfirm={() =>
                  void withdraw.run(async () => {
                    await client.proposals.withdraw(current.id);
                    notice.show('Your proposal is withdrawn.', 'none');
                    proposals.reload();
                    return null;
                  })
                }
              />
            </>
          )}
          {current.status === 'accepted' && current.decided_at && (
            <p>
              Accepted <Ago at={current.decided_at} now={now} />. The job is below.
            </p>
          )}
        </article>
      )}
      <OutcomeLine outcome={withdraw.outcome} />
      <OutcomeLine outcome={notice.outcome} />
      {list !== null && !current && open && request.relation !== 'engaged' && (
        <NewProposal
          request={request}
          onSent={() => {
            notice.show(
              'Your proposal is sent. Handoff emails you when the customer decides.',
              'submitted',
            );
            proposals.reload();
          }}
        />
      )}
      {list !== null && !current && !open && (
        <p class="hint">This request takes no proposals now.</p>
      )}
      {earlier.length > 0 && (
        <>
          <h3>Earlier proposals</h3>
          <ul class="plain">
            {earlier.map((proposal) => (
              <li key={proposal.id}>
                {money(proposal.amount, proposal.currency)}: {PROPOSAL_STATUS[proposal.status]}{' '}
                (sent <Ago at={proposal.created_at} now={now} />)
                {proposal.decline_reason && <> Reason given: “{proposal.decline_reason}”</>}
              </li>
            ))}
          </ul>
        </>
      )}
    </Area>
  );
}

function ProposalFacts(props: { proposal: Proposal; now: number }) {
  const { proposal } = props;
  return (
    <>
      <p class="words">{proposal.message}</p>
      <p class="meta">
        <span>
          Sent <Ago at={proposal.created_at} now={props.now} />
        </span>
        {proposal.estimated_days !== null && (
          <span>
            About {proposal.estimated_days} {proposal.estimated_days === 1 ? 'day' : 'days'} of work
          </span>
        )}
      </p>
      {proposal.milestones.length > 0 && (
        <ol class="plan">
          {proposal.milestones.map((step, index) => (
            <li key={index}>
              <strong>{step.title}</strong>
              {step.amount !== null && <> · {money(step.amount, proposal.currency)}</>}
              {step.due_in_days !== null && (
                <>
                  {' '}
                  · within {step.due_in_days} {step.due_in_days === 1 ? 'day' : 'days'} of the start
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** How many decimals a currency's amounts may have (0 for JPY, 2 for USD). */
const decimalsOf = (currency: string) => {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
};

/** An amount as typed ("1,200.50", "1200"), or an error in words. */
function amountOf(text: string, currency: string, what: string): number | string {
  const cleaned = text.replace(/[\s,]/g, '');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return `${what}: enter a number, like 1200 or 1200.50.`;
  const value = Number(cleaned);
  if (value <= 0) return `${what} must be more than zero.`;
  const decimals = (cleaned.split('.')[1] ?? '').length;
  const allowed = decimalsOf(currency);
  if (decimals > allowed) {
    return allowed === 0
      ? `${what}: ${currency} amounts have no decimals.`
      : `${what}: ${currency} amounts have at most ${allowed} decimals.`;
  }
  return value;
}

function daysOf(text: string, what: string): number | string | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text.trim());
  if (!Number.isInteger(value) || value < 1 || value > 730) {
    return `${what}: enter a whole number of days from 1 to 730.`;
  }
  return value;
}

/** The form as the API takes it, or the first problem with it in words. */
function toBody(form: ProposalForm): ProposalCreate | string {
  if (form.message.trim() === '') return 'Say what you will do for the customer.';
  const amount = amountOf(form.amount, form.currency, 'Price');
  if (typeof amount === 'string') return amount;
  const days = daysOf(form.days, 'Time needed');
  if (typeof days === 'string') return days;
  const milestones: NonNullable<ProposalCreate['milestones']> = [];
  for (const [index, row] of form.plan.entries()) {
    const name = `Milestone ${index + 1}`;
    if (row.title.trim() === '') return `${name}: give it a title, or remove it.`;
    const step: (typeof milestones)[number] = { title: row.title.trim() };
    if (row.amount.trim() !== '') {
      const value = amountOf(row.amount, form.currency, `${name}’s amount`);
      if (typeof value === 'string') return value;
      step.amount = value;
    }
    const due = daysOf(row.days, `${name}’s days`);
    if (typeof due === 'string') return due;
    if (due !== undefined) step.due_in_days = due;
    milestones.push(step);
  }
  return {
    message: form.message.trim(),
    amount,
    currency: form.currency,
    ...(days === undefined ? {} : { estimated_days: days }),
    ...(milestones.length > 0 ? { milestones } : {}),
  };
}

function NewProposal(props: { request: RequestDetail; onSent: () => void }) {
  const { client } = useSession();
  const [form, setForm, clear] = useDraftForm<ProposalForm>(`proposal.${props.request.id}`, EMPTY);
  const send = useAction();
  const [problem, setProblem] = useState<string | null>(null);
  const set = (change: Partial<ProposalForm>) => setForm({ ...form, ...change });
  const setRow = (index: number, change: Partial<PlanRow>) =>
    set({ plan: form.plan.map((row, i) => (i === index ? { ...row, ...change } : row)) });
  return (
    <form
      class="card"
      aria-labelledby="new-proposal"
      onSubmit={(event) => {
        event.preventDefault();
        const body = toBody(form);
        if (typeof body === 'string') {
          setProblem(body);
          return;
        }
        setProblem(null);
        void send.run(async () => {
          await client.requests.propose(props.request.id, body);
          clear();
          props.onSent();
          return null;
        });
      }}
    >
      <h3 id="new-proposal">Make a proposal</h3>
      <Field label="What you will do" hint="The customer reads this first.">
        <textarea
          rows={4}
          maxLength={5_000}
          value={form.message}
          onInput={(event) => set({ message: event.currentTarget.value })}
        />
      </Field>
      <div class="row">
        <Field label="Price">
          <input
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={form.amount}
            onInput={(event) => set({ amount: event.currentTarget.value })}
          />
        </Field>
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
        <Field label="Time needed, in days" hint="Optional">
          <input
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={form.days}
            onInput={(event) => set({ days: event.currentTarget.value })}
          />
        </Field>
      </div>
      <fieldset>
        <legend>Milestones (optional)</legend>
        <p class="hint">
          Split the work into steps the customer approves one by one. Without any, you can add them
          once the job starts.
        </p>
        {form.plan.map((row, index) => (
          <div class="plan-row" key={index} role="group" aria-label={`Milestone ${index + 1}`}>
            <Field label={`Milestone ${index + 1}: title`}>
              <input
                type="text"
                maxLength={200}
                value={row.title}
                onInput={(event) => setRow(index, { title: event.currentTarget.value })}
              />
            </Field>
            <Field label="Amount" hint="Optional">
              <input
                type="text"
                inputMode="decimal"
                value={row.amount}
                onInput={(event) => setRow(index, { amount: event.currentTarget.value })}
              />
            </Field>
            <Field label="Due after, in days" hint="Optional">
              <input
                type="text"
                inputMode="numeric"
                value={row.days}
                onInput={(event) => setRow(index, { days: event.currentTarget.value })}
              />
            </Field>
            <button
              type="button"
              class="quiet"
              onClick={() => set({ plan: form.plan.filter((_, i) => i !== index) })}
            >
              Remove milestone {index + 1}
            </button>
          </div>
        ))}
        {form.plan.length < 20 && (
          <button
            type="button"
            class="quiet"
            onClick={() => set({ plan: [...form.plan, { title: '', amount: '', days: '' }] })}
          >
            Add a milestone
          </button>
        )}
      </fieldset>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <OutcomeLine outcome={send.outcome} />
      <button type="submit" class="primary" disabled={send.busy}>
        {send.busy ? 'Sending…' : 'Send proposal'}
      </button>
    </form>
  );
}
