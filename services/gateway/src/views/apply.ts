import { Message, PaymentRequest, Request, type EventEnvelope } from '@handoff/contracts';
import { outgrows, overflowOf, type RequestView } from './document.ts';

/** What an event does to a view. */
export type Applied =
  /** The view already has it (a redelivery, or a read taken after it): nothing to write. */
  | { kind: 'unchanged' }
  | { kind: 'changed'; view: RequestView }
  /** The event says something the view cannot take: the view goes, reads take the long way. */
  | { kind: 'unusable'; reason: string };

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Applies one event to a request's view. Events of one request come from several services and
 * reach the gateway in any order, so each part of the view takes them in a way that order does not
 * change: the request is replaced only by a later state of it, messages and approved payment
 * requests are added by id (both are created once and never change), and the event's number is
 * recorded so that `upto` says up to which sequence the view has everything.
 */
export function applyEvent(view: RequestView, event: EventEnvelope): Applied {
  const { sequence, object } = event.data;
  if (view.overflow || sequence <= view.upto || view.ahead.includes(sequence)) {
    return { kind: 'unchanged' };
  }
  const next: RequestView = { ...view };

  if (object['object'] === 'request') {
    const request = Request.loose().safeParse(object);
    if (!request.success) return { kind: 'unusable', reason: `${event.type} carries no request` };
    if (isLater(request.data, sequence, view)) {
      next.request = request.data;
      next.request_sequence = sequence;
    }
  } else if (event.type === 'message.created') {
    const message = Message.loose().safeParse(object);
    if (!message.success) return { kind: 'unusable', reason: 'message.created carries no message' };
    if (!view.conversation.some((held) => held.id === message.data.id)) {
      const newest = view.conversation.at(-1);
      // Ids grow with time: a new message almost always goes last.
      const conversation = [...view.conversation, message.data];
      if (newest && byId(newest, message.data) > 0) conversation.sort(byId);
      next.conversation = conversation;
    }
  } else if (object['object'] === 'payment_request') {
    const payment = PaymentRequest.loose().safeParse(object);
    if (!payment.success)
      return { kind: 'unusable', reason: `${event.type} carries no payment request` };
    // Approval is final, so an approved one never changes or leaves the list.
    if (
      payment.data.status === 'approved' &&
      !view.payments.some((held) => held.id === payment.data.id)
    ) {
      next.payments = [...view.payments, payment.data].sort(byId);
    }
  }
  return { kind: 'changed', view: outgrows(next) ? overflowOf(next) : counted(next, sequence) };
}

/**
 * Whether an event's request is a later state than the view's. Two changes of one request made at
 * once by two intake replicas may be numbered in the other order than they were written, so the
 * write's own time (`updated_at`, set by each write, which intake makes one at a time per
 * request) decides, and the sequence only between writes of the same millisecond.
 */
function isLater(request: RequestView['request'], sequence: number, view: RequestView): boolean {
  const [incoming, held] = [Date.parse(request.updated_at), Date.parse(view.request.updated_at)];
  return incoming > held || (incoming === held && sequence > view.request_sequence);
}

/** Records that the view has event `sequence`: `upto` moves past every number it now has. */
function counted(view: RequestView, sequence: number): RequestView {
  const ahead = new Set([...view.ahead, sequence]);
  let upto = view.upto;
  while (ahead.delete(upto + 1)) upto += 1;
  return { ...view, upto, ahead: [...ahead].sort((a, b) => a - b) };
}

/** The agent's read, from a view. */
export function detailOf(view: RequestView) {
  return {
    ...view.request,
    conversation: view.conversation,
    conversation_has_more: view.conversation_has_more,
    payments: view.payments,
  };
}

/**
 * Whether a view answers for everything the request's writes have announced: every event the
 * request has been given a number for (`last`, from `HANDOFF_SEQUENCES`) is in it. A service
 * numbers an event before it answers the write that made it, so a write answered before this
 * read is in the view. A request in progress without an engaged provider may have one that no
 * event announced (intake records it on a request staff had already moved): such a view is not
 * trusted.
 */
export function isCurrent(view: RequestView, last: number): boolean {
  if (view.overflow || view.upto < last) return false;
  const { status, engaged_provider_id: engaged } = view.request;
  return !(engaged === null && (status === 'in_progress' || status === 'completed'));
}
