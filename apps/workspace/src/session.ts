import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ProviderClient, Uploader, WorkspaceSession } from './api.ts';

/** The signed-in provider and its API client, for every screen behind the sign-in. */
export interface Session {
  session: WorkspaceSession;
  client: ProviderClient;
  /** Uploads a file as the provider (the API client has no way to show an upload's progress). */
  upload: Uploader;
  signOut(): Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in screen');
  return session;
}
