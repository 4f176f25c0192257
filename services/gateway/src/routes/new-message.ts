import { Message, MessageCreate, REQUEST_CLOSED } from '@handoff/contracts';
import { IdParams } from './ids.ts';

/** A message written into a request's conversation, which a closed request refuses. */
export const NEW_MESSAGE = {
  method: 'post',
  params: IdParams,
  body: MessageCreate,
  status: 201,
  response: Message,
  notFound: ['request_not_found'],
  conflicts: [REQUEST_CLOSED],
} as const;
