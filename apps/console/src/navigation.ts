// The screens and the function that moves between them: in a module of their own because the
// screens take `Go` from the app that renders them, and importing it from app.tsx made a cycle.
export type Screen =
  | 'queues'
  | 'applications'
  | 'payments'
  | 'disputes'
  | 'integrations'
  | 'providers'
  | 'webhooks'
  | 'request'
  | 'audit';
export type Go = (screen: Screen, id?: string) => void;
