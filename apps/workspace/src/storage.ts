// What the workspace keeps in the browser: drafts (sessionStorage, this tab only, per provider and
// per thing written) and where to return after signing in. Storage may be off or full: every
// access is allowed to fail, and the app then works without it.

const PREFIX = 'handoff.workspace';

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string | null) {
  try {
    if (value === null || value === '') storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Without storage a draft lives as long as the page.
  }
}

const session = () => sessionStorage;

export const draftKey = (providerId: string, what: string) =>
  `${PREFIX}.draft.${providerId}.${what}`;

/** What names the message being written on a request, among a provider's drafts. */
export const messageDraft = (requestId: string) => `message.${requestId}`;

export const drafts = {
  get: (key: string) => read(session, key) ?? '',
  set: (key: string, value: string) => write(session, key, value),
  /** Forgets every draft of a provider: when it signs out on purpose, on a shared computer. */
  clear(providerId: string) {
    try {
      const mine = `${PREFIX}.draft.${providerId}.`;
      for (const key of Object.keys(sessionStorage)) {
        if (key.startsWith(mine)) sessionStorage.removeItem(key);
      }
    } catch {
      // Nothing kept, nothing to forget.
    }
  },
};

const RETURN = `${PREFIX}.return`;

/** Where to go after the next sign-in (a path under /workspace). */
export const returnPath = {
  set: (path: string) => write(session, RETURN, path),
  take(): string | null {
    const path = read(session, RETURN);
    write(session, RETURN, null);
    return path && path.startsWith('/workspace') ? path : null;
  },
};
