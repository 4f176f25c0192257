// The variables of services/conversation. The schema lives in this package rather than in the service so
// that the dev stack (which checks a stack's settings before it starts anything) and the deploy
// checks read the same schema without importing a service. The service reads it in src/env.ts.
import type { z } from 'zod';
import { baseServiceEnv } from '../index.ts';
import { checkFilesEnv, filesEnvShape } from './files.ts';

/** Conversation reads the variables every backend service reads, and those of its files (files.ts). */
export const conversationEnv = baseServiceEnv.extend(filesEnvShape).superRefine(checkFilesEnv);
export type ConversationEnv = z.output<typeof conversationEnv>;
