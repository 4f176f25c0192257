import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { connect, isSignedOut, workspaceClient, type WorkspaceSession } from './api.ts';
import { Inbox } from './inbox.tsx';
import { RequestPage } from './request.tsx';
import { isPublic, navigate, paths, useLinkToken, useRoute, type Route } from './routes.ts';
import { Link, ScreenTitle } from './screen.tsx';
import { type Session, SessionContext } from './session.ts';
import { Settings } from './settings.tsx';
import { SignIn } from './sign-in.tsx';
import { drafts, returnPath } from './storage.ts';
import { hearOtherTabs, tellOtherTabs } from './tabs.ts';
import { Unsubscribe } from './unsubscribe.tsx';

type Auth =
  | { kind: 'checking' }
  /** `email`: the address to ask a new link for, when the session ended without the person's say. */
  | { kind: 'out'; notice: string | null; email?: string }
  | { kind: 'in'; session: WorkspaceSession };

// The mail's link usually opens in a new tab; this one follows once the session is back (that
// tab tells it, and looking at it again checks too), with what was being written.
const SIGNED_OUT =
  'You were signed out. Ask for a new link below; once you have signed in with it, come back to this tab: what you were writing is still here.';

/**
 * The providers' workspace. The session is an HttpOnly cookie the page never sees; the page
 * holds only its CSRF token, in memory, and asks the gateway for it again after a reload.
 */
export function App() {
  const { route, path } = useRoute();
  const [linkToken, setLinkToken] = useLinkToken();
  const [auth, setAuth] = useState<Auth>({ kind: 'checking' });
  const current = useRef(auth);
  current.current = auth;
  /** Signed out on purpose: the drafts go (a shared computer), and so does this screen. */
  const leave = (ended: WorkspaceSession, notice: string) => {
    drafts.clear(ended.provider.id);
    // Straight to the sign-in page: no way back to this screen after the next sign-in.
    navigate(paths.signIn, { replace: true });
    setAuth({ kind: 'out', notice });
  };

  const connection = useMemo(() => {
    if (auth.kind !== 'in') return null;
    // Several calls may notice a change at once; the first decides, and a late answer to an
    // earlier session's call leaves a newer session alone.
    const stillThis = () => {
      const now = current.current;
      return now.kind === 'in' && now.session.id === auth.session.id;
    };
    return connect(auth.session, {
      ended() {
        if (stillThis()) {
          setAuth({ kind: 'out', notice: SIGNED_OUT, email: auth.session.provider.email });
        }
      },
      replaced(session) {
        if (!stillThis() || session.id === auth.session.id) return;
        setAuth({ kind: 'in', session });
        // Another provider signed in in this browser: nothing of this one's stays on screen.
        if (session.provider.id !== auth.session.provider.id) navigate(paths.inbox);
      },
    });
  }, [auth]);

  // Whether there is a session already (its cookie), for every screen behind the sign-in, and
  // for the sign-in page itself unless it came with a link to exchange.
  const needsCheck =
    auth.kind === 'checking' &&
    route.name !== 'unsubscribe' &&
    !(route.name === 'sign-in' && linkToken);
  useEffect(() => {
    if (!needsCheck) return;
    workspaceClient()
      .session()
      .then(
        (session) => setAuth({ kind: 'in', session }),
        (error: unknown) =>
          setAuth(
            isSignedOut(error)
              ? { kind: 'out', notice: null }
              : {
                  kind: 'out',
                  notice:
                    'Handoff could not be reached just now. Check your connection, then sign in.',
                },
          ),
      );
  }, [needsCheck]);

  // Signed out on purpose in another tab: this one leaves too, forgetting its drafts, as if the
  // person had pressed "Sign out" here.
  useEffect(
    () =>
      hearOtherTabs((news) => {
        const now = current.current;
        if (news !== 'signed-out' || now.kind !== 'in') return;
        leave(now.session, 'You signed out in another tab.');
      }),
    [],
  );

  // Signed out on a screen behind the sign-in: to the sign-in page, and back here after it.
  useEffect(() => {
    if (auth.kind === 'out' && !isPublic(route)) {
      if (route.name !== 'inbox') returnPath.set(path);
      navigate(paths.signIn, { replace: true });
    }
    if (auth.kind === 'in' && route.name === 'sign-in') {
      navigate(returnPath.take() ?? paths.inbox, { replace: true });
    }
  }, [auth, route.name]);

  if (route.name === 'unsubscribe') return <Unsubscribe key={linkToken ?? ''} token={linkToken} />;
  if (route.name === 'sign-in' && auth.kind !== 'in') {
    if (needsCheck) return <Loading />;
    return (
      <SignIn
        key={linkToken ?? ''}
        token={linkToken}
        notice={auth.kind === 'out' ? auth.notice : null}
        email={auth.kind === 'out' ? (auth.email ?? '') : ''}
        onSignedIn={(session) => {
          // The link is spent: a later sign-out shows the form, not this link's button.
          setLinkToken(null);
          setAuth({ kind: 'in', session });
        }}
      />
    );
  }
  if (auth.kind !== 'in' || !connection) return <Loading />;

  const session: Session = {
    session: auth.session,
    client: connection.provider,
    upload: connection.upload,
    async signOut() {
      try {
        await connection.workspace.signOut();
      } catch (error) {
        // Already ended on the server: signed out either way.
        if (!isSignedOut(error)) throw error;
      }
      tellOtherTabs('signed-out');
      leave(auth.session, 'You signed out.');
    },
  };
  return (
    <SessionContext.Provider value={session}>
      <Shell route={route} name={auth.session.provider.name}>
        <div key={path}>
          {route.name === 'inbox' && <Inbox />}
          {route.name === 'request' && <RequestPage id={route.id} />}
          {route.name === 'settings' && <Settings />}
          {route.name === 'not-found' && <NotFound />}
        </div>
      </Shell>
    </SessionContext.Provider>
  );
}

function Shell(props: { route: Route; name: string; children: ComponentChildren }) {
  const current = (name: Route['name']) => (props.route.name === name ? 'page' : undefined);
  return (
    <>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header class="top">
        <Link class="brand" href={paths.inbox}>
          Handoff
        </Link>
        <nav aria-label="Workspace">
          <ul>
            <li>
              <Link href={paths.inbox} aria-current={current('inbox')}>
                Inbox
              </Link>
            </li>
            <li>
              <Link href={paths.settings} aria-current={current('settings')}>
                Settings
              </Link>
            </li>
          </ul>
        </nav>
        <span class="who">{props.name}</span>
      </header>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </>
  );
}

function Loading() {
  return (
    <main id="main" class="narrow">
      <p class="brand-line">Handoff workspace</p>
      <p role="status">Loading…</p>
    </main>
  );
}

function NotFound() {
  return (
    <>
      <ScreenTitle title="Page not found" />
      <p>There is nothing at this address.</p>
      <p>
        <Link href={paths.inbox}>Go to your inbox</Link>
      </p>
    </>
  );
}
