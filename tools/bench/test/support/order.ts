/**
 * The scenarios on the shared stack, in the order a run without BENCH_ONLY measures them: the
 * webhook scenarios last (the latency at half the peak after the peaks it is measured at), and
 * then one endpoint whose receiver takes 20 ms, against webhook-deliveries-1; the files last, each
 * right after its raw GridFS baseline.
 */
export const SHARED_STACK_ORDER = [
  'gateway-readyz',
  'gateway-public',
  'gateway-authenticated',
  'stack-insert-one',
  'stack-find-one',
  'gateway-create',
  'a2a-send',
  'mcp-task-create',
  'create-to-webhook',
  'gateway-read',
  'gateway-read-cold',
  'gateway-message',
  'provider-proposal',
  'milestone-approval',
  'long-poll-answer',
  'long-poll-held',
  'raw-smtp-send',
  'mail-deliveries',
  'webhook-deliveries-1',
  'webhook-latency-1',
  'webhook-deliveries-10',
  'webhook-deliveries-100',
  'webhook-latency-100',
  'webhook-deliveries-1-slow20',
  'gridfs-write-1mib',
  'file-upload-1mib',
  'gridfs-read-1mib',
  'file-download-1mib',
];
