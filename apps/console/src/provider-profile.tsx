import { LANGUAGE_TAG_PATTERN, ROUTING_LIMITS } from '@handoff/contracts';
import { Field, OutcomeLine, TextField } from '@handoff/web-ui';
import type { Provider, ProviderCreate, StaffApi } from './api.ts';
import { useAction } from './hooks.ts';
import { useKept } from './memory.ts';

// What the routing rules read of a provider (its categories, capacity, languages, availability),
// as staff type it: lists as comma-separated text, numbers as text until they are sent.

export interface ProfileDraft {
  categories: string;
  capacity: string;
  languages: string;
  availability: Provider['availability'];
}

export const NEW_PROFILE: ProfileDraft = {
  categories: '',
  capacity: String(ROUTING_LIMITS.defaultCapacity),
  languages: '',
  availability: 'available',
};

export const profileOf = (p: Provider): ProfileDraft => ({
  categories: p.categories.join(', '),
  capacity: String(p.capacity),
  languages: p.languages.join(', '),
  availability: p.availability,
});

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** `pt-br` as the tag is written, `pt-BR`. */
const tag = (text: string) => {
  const [primary = '', region] = text.split('-');
  return region === undefined
    ? primary.toLowerCase()
    : `${primary.toLowerCase()}-${region.toUpperCase()}`;
};

/** What is wrong with the draft, in words, or null; else the body the API takes. */
export function profileBody(draft: ProfileDraft):
  | { problem: string }
  | {
      body: Required<
        Pick<ProviderCreate, 'categories' | 'capacity' | 'languages' | 'availability'>
      >;
    } {
  const capacity = Number(draft.capacity);
  if (
    draft.capacity.trim() === '' ||
    !Number.isInteger(capacity) ||
    capacity < 0 ||
    capacity > ROUTING_LIMITS.capacity
  ) {
    return { problem: `The capacity is a whole number from 0 to ${ROUTING_LIMITS.capacity}.` };
  }
  const languages = list(draft.languages).map(tag);
  const wrong = languages.filter((l) => !LANGUAGE_TAG_PATTERN.test(l));
  if (wrong.length > 0) {
    return { problem: `Not a language tag: ${wrong.join(', ')} (write en, de or pt-BR).` };
  }
  if (new Set(languages).size !== languages.length)
    return { problem: 'A language is named twice.' };
  if (languages.length > ROUTING_LIMITS.languages) {
    return { problem: `At most ${ROUTING_LIMITS.languages} languages.` };
  }
  return {
    body: {
      categories: list(draft.categories),
      capacity,
      languages,
      availability: draft.availability,
    },
  };
}

/** The fields of the routing profile, for onboarding and for editing a provider. */
export function ProfileFields(props: { draft: ProfileDraft; onDraft: (d: ProfileDraft) => void }) {
  const { draft, onDraft } = props;
  return (
    <>
      <TextField
        label="Categories (comma-separated)"
        required
        value={draft.categories}
        onValue={(categories) => onDraft({ ...draft, categories })}
      />
      <Field
        label="Capacity"
        hint="The most requests it holds at once (offered or accepted and open); 0 takes it out of automatic routing"
      >
        <input
          type="number"
          min={0}
          max={ROUTING_LIMITS.capacity}
          step={1}
          inputMode="numeric"
          required
          value={draft.capacity}
          onInput={(e) => onDraft({ ...draft, capacity: e.currentTarget.value })}
        />
      </Field>
      <TextField
        label="Languages (comma-separated)"
        hint="Language tags such as en, de, pt-BR; empty: any language"
        value={draft.languages}
        onValue={(languages) => onDraft({ ...draft, languages })}
      />
      <Field label="Availability">
        <select
          value={draft.availability}
          onChange={(e) =>
            onDraft({
              ...draft,
              availability: e.currentTarget.value === 'away' ? 'away' : 'available',
            })
          }
        >
          <option value="available">Available: the rules may offer it requests</option>
          <option value="away">Away: the rules pass it over</option>
        </select>
      </Field>
    </>
  );
}

/** Editing an onboarded provider's routing profile. */
export function ProfileForm(props: { api: StaffApi; provider: Provider; saved: () => void }) {
  const { api, provider } = props;
  const [draft, setDraft] = useKept(`provider.profile.${provider.id}`, profileOf(provider));
  const action = useAction();
  const checked = profileBody(draft);
  return (
    <form
      aria-label={`Routing profile of ${provider.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        if ('problem' in checked) return;
        void action.run(async () => {
          await api.patch(`/providers/${provider.id}`, checked.body);
          props.saved();
          return `Saved the routing profile of ${provider.name}.`;
        });
      }}
    >
      <h4>Routing profile</h4>
      <ProfileFields draft={draft} onDraft={setDraft} />
      {'problem' in checked && <p class="note">{checked.problem}</p>}
      <button type="submit" disabled={action.busy || 'problem' in checked}>
        Save the routing profile
      </button>
      <OutcomeLine outcome={action.outcome} />
    </form>
  );
}
