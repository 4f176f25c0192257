import { unwrap } from '@handoff/sdk';
import { LoadError, OutcomeLine, TextField } from '@handoff/web-ui';
import { useEffect, useState } from 'preact/hooks';
import type { ProviderMe } from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import { Area } from './screen.tsx';
import { useSession } from './session.ts';
import { AVAILABILITY, languageName, languages } from './words.ts';

type Availability = ProviderMe['availability'];
const CHOICES = Object.keys(AVAILABILITY) as Availability[];

/**
 * Whether Handoff may offer the provider new requests, and in which languages: its own to set.
 * Its limit (set by staff) and what it holds now are shown beside them.
 */
export function AvailabilityArea() {
  const { client } = useSession();
  const me = useLoad(() => client.me(), []);
  const [availability, setAvailability] = useState<Availability | null>(null);
  const [tags, setTags] = useState('');
  useEffect(() => {
    if (!me.data) return;
    setAvailability(me.data.availability);
    setTags(me.data.languages.join(', '));
  }, [me.data]);
  const save = useAction();
  const saved = me.data;
  const typed = languages(tags);
  const changed =
    saved !== null &&
    (availability !== saved.availability ||
      'wrong' in typed ||
      typed.tags.join() !== saved.languages.join());
  return (
    <Area id="availability" title="New requests">
      <LoadError error={me.error} />
      {saved === null && !me.error && <p role="status">Loading…</p>}
      {saved && availability && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if ('wrong' in typed) {
              save.setOutcome({
                ok: false,
                text: `“${typed.wrong}” is not a language tag. Write tags such as en, de or pt-BR, separated by commas.`,
              });
              return;
            }
            void save.run(async () => {
              await unwrap(
                client.api.PATCH('/v1/provider/me', {
                  body: { availability, languages: typed.tags },
                }),
              );
              me.reload();
              return availability === 'away'
                ? 'Saved. You are away: Handoff offers you no new requests until you are available again.'
                : 'Saved. Handoff may offer you new requests.';
            });
          }}
        >
          <Load me={saved} />
          <fieldset>
            <legend>Your availability</legend>
            {CHOICES.map((choice) => (
              <div key={choice} class="choice">
                <label class="check">
                  <input
                    type="radio"
                    name="availability"
                    value={choice}
                    checked={availability === choice}
                    aria-describedby={`availability-${choice}`}
                    onChange={() => setAvailability(choice)}
                  />
                  {AVAILABILITY[choice].label}
                </label>
                <p class="hint" id={`availability-${choice}`}>
                  {AVAILABILITY[choice].hint}
                </p>
              </div>
            ))}
          </fieldset>
          <TextField
            label="Languages you work in"
            hint="Language tags separated by commas, such as en, pt-BR. Leave it empty to be offered requests in any language."
            autoComplete="off"
            value={tags}
            onValue={setTags}
          />
          {'tags' in typed && typed.tags.length > 0 && (
            <p class="hint">That is: {typed.tags.map(languageName).join(', ')}.</p>
          )}
          <OutcomeLine outcome={save.outcome} />
          <button type="submit" class="primary" disabled={save.busy || !changed}>
            {save.busy ? 'Saving…' : 'Save availability and languages'}
          </button>
        </form>
      )}
    </Area>
  );
}

/** How many requests the provider holds against the limit staff set. */
function Load(props: { me: ProviderMe }) {
  const { capacity, load } = props.me;
  const held = `${load} ${load === 1 ? 'request' : 'requests'}`;
  return (
    <>
      <p>
        You hold <strong>{held}</strong> now (offered to you and not yet answered, or accepted and
        not yet done), of at most <strong>{capacity}</strong> at a time. Handoff staff set this
        limit.
      </p>
      {capacity === 0 ? (
        <p class="callout" role="note">
          Your limit is 0: Handoff offers you no requests for now. Ask Handoff staff to change it.
        </p>
      ) : (
        load >= capacity && (
          <p class="callout" role="note">
            You are at your limit: Handoff offers you no new requests until one is done.
          </p>
        )
      )}
    </>
  );
}
