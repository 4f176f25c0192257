import { ProposalDecline, ReasonBody, REQUEST_LIMITS, trimmedText } from '@handoff/contracts';
import type { HandoffClient, Milestone, Proposal } from '@handoff/sdk';
import { z } from 'zod';
import { fileNames, type Snapshot } from './snapshot.ts';
import type { TaskRef } from './task-id.ts';

/** What the agent is asked (an elicitation form) and how its answer becomes an API call. */
export interface PendingInput {
  key: string;
  request: {
    method: 'elicitation/create';
    params: { mode: 'form'; message: string; requestedSchema: Record<string, unknown> };
  };
  /** Parses the form's content (throws a ZodError on a bad one) and makes the call. */
  apply(client: HandoffClient, ref: TaskRef, content: unknown): Promise<unknown>;
}

const Reply = z.object({
  message: trimmedText(REQUEST_LIMITS.message).describe('Your answer; the provider reads it.'),
});
const ProposalAnswer = z.object({
  decision: z
    .enum(['accept', 'decline'])
    .describe('Accept starts the job; decline tells the provider.'),
  reason: ProposalDecline.shape.reason.describe('Why you decline (the provider reads it).'),
});
const MilestoneAnswer = z
  .object({
    decision: z
      .enum(['approve', 'request_changes'])
      .describe('Approve the work, or send it back with a reason.'),
    reason: ReasonBody.shape.reason.optional().describe('What to change (needed to send it back).'),
  })
  .refine((answer) => answer.decision === 'approve' || answer.reason !== undefined, {
    path: ['reason'],
    message: 'A reason is needed to request changes.',
  });

/** A form's schema as elicitation wants it: a flat object of primitive fields. */
function formSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  return { type: 'object', properties: json.properties ?? {}, required: json.required ?? [] };
}

const FORMS = {
  reply: formSchema(Reply),
  proposal: formSchema(ProposalAnswer),
  milestone: formSchema(MilestoneAnswer),
};

const clip = (text: string, max = 1_500) => (text.length > max ? `${text.slice(0, max)}…` : text);

const form = (message: string, requestedSchema: Record<string, unknown>) => ({
  method: 'elicitation/create' as const,
  params: { mode: 'form' as const, message: clip(message, 4_000), requestedSchema },
});

/**
 * The provider's newest message is a question for the agent while nothing has come after it:
 * no message of the agent's, no proposal and no submission (a provider's opening words followed
 * by its proposal need no answer of their own).
 */
function question(snapshot: Snapshot): PendingInput | undefined {
  const newest = snapshot.request.conversation.at(-1);
  if (newest?.author_role !== 'provider') return undefined;
  const later = (time: string | null | undefined) => time != null && time >= newest.created_at;
  if (snapshot.proposals.some((proposal) => later(proposal.created_at))) return undefined;
  if (snapshot.milestones.some((milestone) => later(milestone.submitted_at))) return undefined;
  return {
    key: `reply:${newest.id}`,
    request: form(
      `The provider asks: “${clip(newest.message)}” Your reply goes to the provider.`,
      FORMS.reply,
    ),
    apply: (client, ref, content) =>
      client.requests.sendMessage(ref.requestId, Reply.parse(content), { token: ref.requestToken }),
  };
}

function proposalInput(proposal: Proposal): PendingInput {
  const days = proposal.estimated_days === null ? '' : ` in ${proposal.estimated_days} days`;
  const plan = proposal.milestones.map(
    (step) =>
      `${step.title}${step.amount === null ? '' : ` (${step.amount} ${proposal.currency})`}`,
  );
  const message =
    `${proposal.provider_name} proposes ${proposal.amount} ${proposal.currency}${days}: ` +
    `“${clip(proposal.message)}”` +
    (plan.length > 0 ? ` Plan: ${plan.join('; ')}.` : '') +
    ' Accept it (the job starts, other proposals are declined) or decline it?';
  return {
    key: `proposal:${proposal.id}`,
    request: form(message, FORMS.proposal),
    apply: (client, ref, content) => {
      const answer = ProposalAnswer.parse(content);
      const { proposals } = client.requests;
      const opts = { token: ref.requestToken };
      return answer.decision === 'accept'
        ? proposals.accept(ref.requestId, proposal.id, opts)
        : proposals.decline(
            ref.requestId,
            proposal.id,
            answer.reason === undefined ? {} : { reason: answer.reason },
            opts,
          );
    },
  };
}

function milestoneInput(milestone: Milestone, snapshot: Snapshot): PendingInput {
  const work = snapshot.deliverables
    .filter((deliverable) => deliverable.milestone_id === milestone.id)
    .map((deliverable) => {
      const files = fileNames(deliverable.files);
      return [
        deliverable.title,
        ...(typeof deliverable.url === 'string' ? [`<${deliverable.url}>`] : []),
        ...(files.length > 0 ? [`(files: ${files.join(', ')})`] : []),
      ].join(' ');
    });
  const message =
    `“${milestone.title}” is submitted for your review (submission ${milestone.revision})` +
    (milestone.submission_note ? `: “${clip(milestone.submission_note)}”` : '.') +
    (work.length > 0 ? ` Deliverables: ${work.join('; ')}.` : '') +
    ' Approve it, or request changes with a reason?';
  return {
    // A resubmission is a new question: the key names the submission it asks about.
    key: `milestone:${milestone.id}:${milestone.revision}`,
    request: form(message, FORMS.milestone),
    apply: (client, ref, content) => {
      const answer = MilestoneAnswer.parse(content);
      const { milestones } = client.requests;
      const opts = { token: ref.requestToken };
      return answer.decision === 'approve' || answer.reason === undefined
        ? milestones.approve(ref.requestId, milestone.id, opts)
        : milestones.requestChanges(ref.requestId, milestone.id, { reason: answer.reason }, opts);
    },
  };
}

/**
 * What waits on the agent now, each with a key unique over the task's life: a provider's
 * question, open proposals, submitted milestones. Payment requests are not here: the agent
 * proposes them and staff approve them, so none waits on the agent.
 */
export function pendingInputs(snapshot: Snapshot): PendingInput[] {
  if (snapshot.request.status === 'completed' || snapshot.request.status === 'cancelled') return [];
  const asked = question(snapshot);
  return [
    ...(asked ? [asked] : []),
    ...snapshot.proposals
      .filter((proposal) => proposal.status === 'submitted')
      .map((proposal) => proposalInput(proposal)),
    ...snapshot.milestones
      .filter((milestone) => milestone.status === 'submitted')
      .map((milestone) => milestoneInput(milestone, snapshot)),
  ];
}
