// What the workspace keeps in the browser: drafts (sessionStorage, this tab only, per provider and
// per thing written), where to return after signing in, and the ids of the messages this provider
// sent (to tell its own messages from another provider's). Storage may be off or full: every
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
const local = () => localStorage;

export const draftKey = (providerId: string, what: string) =>
  `${PREFIX}.draft.${providerId}.${what}`;

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

const SENT_LIMIT = 500;
const sentKey = (providerId: string) => `${PREFIX}.sent.${providerId}`;

/** Ids of the messages this provider sent from this browser. */
export const sentMessages = {
  has(providerId: string, id: string): boolean {
    return (read(local, sentKey(providerId)) ?? '').split(' ').includes(id);
  },
  add(providerId: string, id: string) {
    const ids = (read(local, sentKey(providerId)) ?? '').split(' ').filter(Boolean);
    ids.push(id);
    write(local, sentKey(providerId), ids.slice(-SENT_LIMIT).join(' '));
  },
};
