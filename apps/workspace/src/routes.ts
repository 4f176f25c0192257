import { useEffect, useState } from 'preact/hooks';

// The workspace routes by path under /workspace (the gateway answers the page for each), so that
// a mail can link straight to a request, the sign-in page or the unsubscribe page.
export const BASE = '/workspace';

export type Route =
  | { name: 'inbox' }
  | { name: 'request'; id: string }
  | { name: 'settings' }
  | { name: 'sign-in' }
  | { name: 'unsubscribe' }
  | { name: 'not-found' };

export function parse(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { name: 'inbox' };
  const [first, second] = parts;
  if (parts.length === 1 && first === 'settings') return { name: 'settings' };
  if (parts.length === 1 && first === 'sign-in') return { name: 'sign-in' };
  if (parts.length === 1 && first === 'unsubscribe') return { name: 'unsubscribe' };
  if (parts.length === 2 && first === 'requests' && second) return { name: 'request', id: second };
  return { name: 'not-found' };
}

/** The pages that need no sign-in: a mail's link opens them. */
export const isPublic = (route: Route) => route.name === 'sign-in' || route.name === 'unsubscribe';

export const paths = {
  inbox: `${BASE}/`,
  request: (id: string) => `${BASE}/requests/${encodeURIComponent(id)}`,
  settings: `${BASE}/settings`,
  signIn: `${BASE}/sign-in`,
};

const NAVIGATED = 'workspace:navigate';
let navigated = false;

/** Whether the person has moved inside the app since the page loaded. */
export const hasNavigated = () => navigated;

/** Moves to `path` inside the app, without a page load. */
export function navigate(path: string, options: { replace?: boolean } = {}) {
  navigated = true;
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATED));
}

/** The route of the address bar, following navigation and the browser's back and forward. */
export function useRoute(): { route: Route; path: string } {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return { route: parse(path), path };
}

/**
 * Reads the fragment's `token` (sign-in and unsubscribe links carry it there: never sent to a
 * server, never in logs or a Referer) and removes it from the address bar and history, so that
 * it is not bookmarked, shared or left behind in the browser's history.
 */
export function takeFragmentToken(): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = params.get('token');
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  return token && token.trim() !== '' ? token.trim() : null;
}

/**
 * The token of the mail's link that opened a public page. It may also arrive in a page already
 * open on the sign-in page (only the fragment changes); `set(null)` forgets a spent one.
 */
export function useLinkToken(): [string | null, (token: string | null) => void] {
  const [token, setToken] = useState(() =>
    isPublic(parse(location.pathname)) ? takeFragmentToken() : null,
  );
  useEffect(() => {
    const arrived = () => {
      if (!isPublic(parse(location.pathname))) return;
      const taken = takeFragmentToken();
      if (taken) setToken(taken);
    };
    window.addEventListener('hashchange', arrived);
    return () => window.removeEventListener('hashchange', arrived);
  }, []);
  return [token, setToken];
}
