import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type Message, type RequestDetail } from './api.ts';
import type { Live } from './live.ts';
import { messageDraft } from './storage.ts';
import { Ago, Area, Field, OutcomeLine, useAction, useDraft, useSession } from './ui.tsx';
import { author } from './words.ts';

const MESSAGE_LIMIT = 10_000;

/**
 * The conversation with the customer's side, oldest first, new messages arriving live. What the
 * provider writes is a draft in this tab until it is sent: a failed send, a reload or a sign-out
 * keeps it.
 */
export function Conversation(props: { request: RequestDetail; live: Live; now: number }) {
  const { request, live, now } = props;
  const { client } = useSession();
  const [draft, setDraft] = useDraft(messageDraft(request.id));
  const send = useAction();
  const [announce, setAnnounce] = useState('');
  const seen = useRef<number | null>(null);
  const closed = request.status === 'completed' || request.status === 'cancelled';
  const customerName = request.contact_permission ? request.customer.name : null;

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

  const submit = async () => {
    const text = draft.trim();
    if (text === '') {
      send.setOutcome({ ok: false, text: 'Write your message first.' });
      return;
    }
    await send.run(async () => {
      live.add(await client.requests.sendMessage(request.id, { message: text }));
      setDraft('');
      return null;
    });
  };

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
              .catch((error: unknown) => send.setOutcome({ ok: false, text: errorText(error) }))
          }
        >
          Show earlier messages
        </button>
      )}
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
        <form
          class="composer"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <Field label="Your message">
            <textarea
              name="message"
              rows={4}
              maxLength={MESSAGE_LIMIT}
              value={draft}
              readOnly={send.busy}
              onInput={(event) => setDraft(event.currentTarget.value)}
              onKeyDown={(event) => {
                // Ctrl+Enter (⌘+Enter) sends, as in most chat and mail apps.
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  void submit();
                }
              }}
            />
          </Field>
          <OutcomeLine outcome={send.outcome} />
          <button type="submit" class="primary" disabled={send.busy}>
            {send.busy ? 'Sending…' : 'Send message'}
          </button>
        </form>
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
      <p class="text">{message.message}</p>
    </li>
  );
}
