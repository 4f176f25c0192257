// The workspace's tabs in one browser share one session cookie, so what one tab does to the
// session holds for all of them: a tab that signs in tells the others (one left on the sign-in
// page after being signed out goes back to where it was), and one that signs out on purpose tells
// them too (on a shared computer, no tab keeps showing the provider's work). Looking at a tab again
// also makes it check (sign-in.tsx); this is for the tabs in view, and where a tab's focus never
// changes. Without BroadcastChannel the tabs simply do not hear each other.

export type TabNews = 'signed-in' | 'signed-out';

const NAME = 'handoff.workspace.session';

// One channel for the page: a channel never hears its own messages, so a tab never hears itself.
let channel: BroadcastChannel | null | undefined;
function open(): BroadcastChannel | null {
  if (channel === undefined) {
    try {
      channel = new BroadcastChannel(NAME);
    } catch {
      channel = null;
    }
  }
  return channel;
}

/** Tells the workspace's other tabs in this browser. */
export function tellOtherTabs(news: TabNews) {
  open()?.postMessage(news);
}

/** Calls `listener` with what another tab tells; answers the way to stop listening. */
export function hearOtherTabs(listener: (news: TabNews) => void): () => void {
  const heard = (event: MessageEvent) => {
    if (event.data === 'signed-in' || event.data === 'signed-out') listener(event.data);
  };
  const tabs = open();
  tabs?.addEventListener('message', heard);
  return () => tabs?.removeEventListener('message', heard);
}
