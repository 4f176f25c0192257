import { type Message } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { A2A_DECISIONS } from '@handoff/contracts';

/** A client's message, as the text of its text parts and the members of its data parts. */
export interface MessageInput {
  text: string | undefined;
  data: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text parts joined by a blank line; data parts' objects merged, later ones winning. */
export function readMessage(message: Message): MessageInput {
  const texts: string[] = [];
  const data: Record<string, unknown> = {};
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'text') texts.push(content.value);
    else if (content?.$case === 'data' && isRecord(content.value))
      Object.assign(data, content.value);
    else {
      throw new RequestMalformedError(
        'Send the brief or the reply as text parts, and fields or a decision as a data part ' +
          '(an object); files are not taken.',
      );
    }
  }
  const text = texts.join('\n\n').trim();
  return { text: text === '' ? undefined : text, data };
}

/**
 * A new task's request: the message's text is the brief (`message`), and the data parts' members
 * are the rest of the create body as the REST API takes it (`category`, `budget_max`,
 * `test_scenario`…), checked by the same schema, unknown members refused.
 */
export function createBody({ text, data }: MessageInput): Record<string, unknown> {
  return text === undefined ? data : { ...data, message: text };
}

export type Decision =
  | { on: 'proposal'; decision: 'accept' | 'decline'; id?: string; reason?: string }
  | { on: 'milestone'; decision: 'approve' | 'request_changes'; id?: string; reason?: string };

/**
 * The decision a follow-up message carries (`{"decision": "accept"}`…), naming its proposal or
 * milestone or leaving it to the one the task waits for; undefined when it carries none. The
 * reason is the data's `reason`, else the message's text.
 */
export function decisionOf({ text, data }: MessageInput): Decision | undefined {
  const { decision } = data;
  if (decision === undefined) return undefined;
  const reasonValue = typeof data.reason === 'string' ? data.reason : text;
  const reason = reasonValue === undefined ? {} : { reason: reasonValue };
  const id = (key: string) => (typeof data[key] === 'string' ? { id: data[key] } : {});
  if (decision === 'accept' || decision === 'decline') {
    return { on: 'proposal', decision, ...id('proposal_id'), ...reason };
  }
  if (decision === 'approve' || decision === 'request_changes') {
    return { on: 'milestone', decision, ...id('milestone_id'), ...reason };
  }
  const known = [...A2A_DECISIONS.proposal, ...A2A_DECISIONS.milestone_review].join(', ');
  throw new RequestMalformedError(`"decision" is one of: ${known}.`);
}
