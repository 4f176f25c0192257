// Where mails link to. A mail has exactly one link into the workspace (or the console) and, for a
// provider's kinds, its unsubscribe link. Tokens ride in the fragment, which a browser never sends
// to a server: not in access logs, not in a Referer, and a mail scanner that fetches the link
// consumes nothing.

export interface Links {
  request(requestId: string): string;
  signIn(token: string): string;
  unsubscribe(token: string): string;
  console: string;
}

export function linksOf(publicUrl: string): Links {
  return {
    request: (id) => `${publicUrl}/workspace/requests/${encodeURIComponent(id)}`,
    signIn: (token) => `${publicUrl}/workspace/sign-in#token=${encodeURIComponent(token)}`,
    unsubscribe: (token) => `${publicUrl}/workspace/unsubscribe#token=${encodeURIComponent(token)}`,
    console: `${publicUrl}/console`,
  };
}
