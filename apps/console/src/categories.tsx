import { ROUTING_LIMITS } from '@handoff/contracts';
import { Field, LoadError, OutcomeLine } from '@handoff/web-ui';
import type { CategoryList, CategorySummary, StaffApi } from './api.ts';
import { PauseControl } from './category-switch.tsx';
import { useAction, useLoad } from './hooks.ts';
import { useKept } from './memory.ts';
import type { Go } from './navigation.ts';
import { seconds } from './time.ts';

/** Each category as the rules route it: its providers, what waits, its settings, its pause. */
export function Categories({ api, go }: { api: StaffApi; go: Go }) {
  const list = useLoad(() => api.get<CategoryList>('/routing/categories'), [api]);
  return (
    <section aria-labelledby="categories-title">
      <h2 id="categories-title">Routing categories</h2>
      <p class="note">
        The rules offer each new request to one provider of its category at a time; a provider who
        does not answer within the category's answer window is passed over for the next, up to its
        most offers. Then the request waits for staff.
      </p>
      <LoadError error={list.error} />
      {!list.data && !list.error && <p>Loading…</p>}
      {list.data?.data.length === 0 && <p>No category yet: providers' profiles bring them.</p>}
      <ul class="cards">
        {list.data?.data.map((c) => (
          <CategoryCard key={c.category} api={api} summary={c} go={go} changed={list.reload} />
        ))}
      </ul>
    </section>
  );
}

function CategoryCard(props: {
  api: StaffApi;
  summary: CategorySummary;
  go: Go;
  changed: () => void;
}) {
  const { summary: c, go } = props;
  return (
    <li class="card" aria-label={`Category ${c.category}`}>
      <h3>
        {c.category} {c.paused && <span class="badge">paused</span>}
      </h3>
      <p class="line">
        <span>
          {c.providers} providers, {c.available_providers} available now
        </span>
        <span>
          <button
            type="button"
            class="link plain"
            onClick={() =>
              go(
                'requests',
                new URLSearchParams({ category: c.category, routing_state: 'queued' }).toString(),
              )
            }
          >
            {c.queued_requests} waiting for staff
          </button>
        </span>
        <span>Answer window {seconds(c.response_seconds)}</span>
        <span>At most {c.max_offers} offers a request</span>
      </p>
      <PauseControl api={props.api} state={c} changed={props.changed} />
      <Settings api={props.api} summary={c} changed={props.changed} />
    </li>
  );
}

const UNITS = { seconds: 1, minutes: 60, hours: 3600, days: 86400 } as const;
type Unit = keyof typeof UNITS;

/** A window in seconds in the largest unit that says it exactly: 7200 is 2 hours. */
function inUnits(total: number): { amount: string; unit: Unit } {
  const unit = (['days', 'hours', 'minutes'] as const).find((u) => total % UNITS[u] === 0);
  return unit
    ? { amount: String(total / UNITS[unit]), unit }
    : { amount: String(total), unit: 'seconds' };
}

/** Changing a category's answer window and its most offers a request. */
function Settings(props: { api: StaffApi; summary: CategorySummary; changed: () => void }) {
  const { summary: c } = props;
  const saved = { ...inUnits(c.response_seconds), maxOffers: String(c.max_offers) };
  const [form, setForm] = useKept(`category.settings.${c.category}`, saved);
  const action = useAction();
  const windowSeconds = Number(form.amount) * UNITS[form.unit];
  const offers = Number(form.maxOffers);
  const valid =
    Number.isInteger(windowSeconds) &&
    windowSeconds >= ROUTING_LIMITS.minResponseSeconds &&
    windowSeconds <= ROUTING_LIMITS.maxResponseSeconds &&
    Number.isInteger(offers) &&
    offers >= 1 &&
    offers <= ROUTING_LIMITS.maxOffers;
  const changed = windowSeconds !== c.response_seconds || offers !== c.max_offers;
  return (
    <form
      class="inline settings"
      aria-label={`Settings of ${c.category}`}
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(async () => {
          await props.api.patch(`/routing/categories/${c.category}`, {
            response_seconds: windowSeconds,
            max_offers: offers,
          });
          props.changed();
          return `Saved the settings of ${c.category}.`;
        });
      }}
    >
      <Field label="Answer window" hint={`At most ${seconds(ROUTING_LIMITS.maxResponseSeconds)}`}>
        <input
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={form.amount}
          onInput={(e) => setForm({ ...form, amount: e.currentTarget.value })}
        />
      </Field>
      <Field label="Unit">
        <select
          value={form.unit}
          onChange={(e) => {
            const unit = e.currentTarget.value;
            if (unit in UNITS) setForm({ ...form, unit: unit as Unit });
          }}
        >
          {Object.keys(UNITS).map((unit) => (
            <option key={unit} value={unit}>
              {unit}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Most offers a request" hint={`1 to ${ROUTING_LIMITS.maxOffers}`}>
        <input
          type="number"
          min={1}
          max={ROUTING_LIMITS.maxOffers}
          step={1}
          inputMode="numeric"
          value={form.maxOffers}
          onInput={(e) => setForm({ ...form, maxOffers: e.currentTarget.value })}
        />
      </Field>
      <button type="submit" disabled={action.busy || !valid || !changed}>
        Save settings
      </button>
      <OutcomeLine outcome={action.outcome} />
    </form>
  );
}
