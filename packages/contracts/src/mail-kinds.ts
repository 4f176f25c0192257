// The kinds of mail a provider may turn off, and their labels, apart from the schemas (no zod
// here), so that the workspace's settings bundle only these words.

/**
 * The kinds of mail a provider may turn off one by one; the sign-in mail is transactional and
 * always goes, and staff mail goes to the addresses configured.
 */
export const PROVIDER_MAIL_KINDS = [
  'request_routed',
  'message_received',
  'proposal_decided',
  'milestone_reviewed',
  'payment_completed',
  'deadline_reminder',
] as const;

/** What each kind a provider may turn off is about, in the words the workspace and mails use. */
export const PROVIDER_MAIL_KIND_LABELS: Record<(typeof PROVIDER_MAIL_KINDS)[number], string> = {
  request_routed: 'A request is sent to you',
  message_received: 'The customer writes to you',
  proposal_decided: 'Your proposal is accepted or declined',
  milestone_reviewed: 'The customer approves a milestone or asks for changes',
  payment_completed: 'A payment is completed',
  deadline_reminder: 'A deadline is a day away',
};
