import type { ComponentChildren } from 'preact';
import type { RoutingCandidate } from './api.ts';
import { ColumnHeads, Scroller } from './ui.tsx';
import { excludedText, OUTCOME_WORDS } from './words.ts';

// The providers a routing decision (or a suggestion) weighed, each with why it was chosen or not.

/** Providers of the category passed over and not listed, counted by reason. */
export function Excluded({ excluded }: { excluded: Record<string, number> }) {
  const text = excludedText(excluded);
  return text ? <p>Also passed over: {text}.</p> : null;
}

/** Candidates of a decision or a suggestion, each with its reasons; `act` adds an action to each. */
export function Candidates(props: {
  label: string;
  candidates: RoutingCandidate[];
  act?: (candidate: RoutingCandidate) => ComponentChildren;
}) {
  const { act } = props;
  if (props.candidates.length === 0) return <p>No provider of the category to weigh.</p>;
  const names = ['Provider', 'Outcome', 'Why', 'Load', 'Score', ...(act ? ['Action'] : [])];
  return (
    <Scroller label={props.label}>
      <table>
        <ColumnHeads names={names} />
        <tbody>
          {props.candidates.map((c) => (
            <tr key={c.provider_id} class={`outcome-${c.outcome}`}>
              <td>{c.name}</td>
              <td>{OUTCOME_WORDS[c.outcome]}</td>
              <td>
                <ul class="reasons">
                  {c.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </td>
              <td>
                {c.load} of {c.capacity}
              </td>
              <td>{c.score.toFixed(2)}</td>
              {act && <td>{act(c)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </Scroller>
  );
}
