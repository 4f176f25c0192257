// The schema is in @handoff/config, where the dev stack and the deploy checks read it too.
import { loadEnv } from '@handoff/config';
import { conversationEnv, type ConversationEnv } from '@handoff/config/services/conversation';

export type Env = ConversationEnv;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('conversation', conversationEnv, source);
