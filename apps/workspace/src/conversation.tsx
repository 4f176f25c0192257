import { REQUEST_LIMITS } from '@handoff/contracts';
import { LoadError } from '@handoff/web-ui';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type Message, type RequestDetail } from './api.ts';
import { FILES_TAKEN, useChosenFiles } from './attach.tsx';
import { Ago } from './clock.tsx';
import { AttachedFiles } from './files.tsx';
import { MessageForm } from './forms.tsx';
import type { Live } from './live.ts';
import { Area } from './screen.tsx';
import { useSession } from './session.ts';
import { messageDraft } from './storage.ts';
import { author } from './words.ts';

/**
 * The conversation with the customer's side, oldest first, new messages arriving live. What the
 * provider writes is a draft in this tab until it is sent: a failed send, a reload or a sign-out
 * keeps it.
 */
export function Conversation(props: { request: RequestDetail; live: Live; now: number }) {
  const { request, live, now } = props;
  const { client } = useSession();
  const [olderError, setOlderError] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const seen = useRef<number | null>(null);
  const closed = request.status === 'completed' || request.status === 'cancelled';
  const customerName = request.contact_permission ? request.customer.name : null;
  const files = useChosenFiles({ requestId: request.id });

  // A screen reader hears that a message arrived (not the whole conversation again).
  useEffect(() => {
    const messages = live.messages;
    if (!messages) return;
    if (seen.current !== null && messages.length > seen.current) {
      const newest = messages.at(-1);
      if (newest && !newest.mine) {
        setAnnounce(`New message from ${author(newest, customerName)}`);
      }
    }
    seen.current = messages.length;
  }, [live.messages]);

  return (
    <Area id="conversation" title="Conversation">
      <p class="visually-hidden" role="status">
        {announce}
      </p>
      {live.hasOlder && (
        <button
          type="button"
          class="quiet"
          onClick={() =>
            void live
              .loadOlder()
              .then(() => setOlderError(null))
              .catch((error: unknown) => setOlderError(errorText(error)))
          }
        >
          Show earlier messages
        </button>
      )}
      <LoadError error={olderError} />
      {live.messages === null ? (
        <p role="status">Loading the conversation…</p>
      ) : live.messages.length === 0 ? (
        <p class="hint">No messages yet. Ask the customer anything you need to know.</p>
      ) : (
        <ol class="messages">
          {live.messages.map((message) => (
            <MessageItem key={message.id} message={message} customerName={customerName} now={now} />
          ))}
        </ol>
      )}
      {closed ? (
        <p class="hint">This request is closed: it takes no more messages.</p>
      ) : (
        <MessageForm
          draft={messageDraft(request.id)}
          class="composer"
          words={{
            label: 'Your message',
            empty: 'Write your message first (with files, a few words about them).',
            send: 'Send message',
          }}
          rows={4}
          maxLength={REQUEST_LIMITS.message}
          attach={{ files, label: 'Attach files', hint: `Optional. ${FILES_TAKEN}` }}
          onSend={async (text, attachments) => {
            live.add(
              await client.requests.sendMessage(request.id, {
                message: text,
                ...(attachments.length > 0 ? { attachments } : {}),
              }),
            );
            return null;
          }}
        />
      )}
    </Area>
  );
}

function MessageItem(props: { message: Message; customerName: string | null; now: number }) {
  const { message } = props;
  return (
    <li class={`message ${message.mine ? 'ours' : 'theirs'}`}>
      <p class="by">
        <strong>{author(message, props.customerName)}</strong>{' '}
        <Ago at={message.created_at} now={props.now} />
      </p>
      {message.message && <p class="text">{message.message}</p>}
      <AttachedFiles files={message.attachments} label="Attached files" />
    </li>
  );
}
