// The screens and the function that moves between them: in a module of their own because the
// screens take `Go` from the app that renders them, and importing it from app.tsx made a cycle.
export type Screen =
  | 'queues'
  | 'requests'
  | 'categories'
  | 'applications'
  | 'payments'
  | 'disputes'
  | 'integrations'
  | 'providers'
  | 'webhooks'
  | 'request'
  | 'audit';
/** Opens `screen`; `param` is what it opens (an id, or a Requests screen's filters). */
export type Go = (screen: Screen, param?: string) => void;
