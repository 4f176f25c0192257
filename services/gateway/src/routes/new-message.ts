import { Message, MessageCreate, REQUEST_CLOSED } from '@handoff/contracts';
import { IdParams } from './ids.ts';

/** A message written into a request's conversation, which a closed request refuses. */
export const NEW_MESSAGE = {
  method: 'post',
  params: IdParams,
  body: MessageCreate,
  status: 201,
  response: Message,
  // `file_not_found`: an attachment that is not a file of this request the sender uploaded.
  notFound: ['request_not_found', 'file_not_found'],
  conflicts: [REQUEST_CLOSED],
} as const;
