// A complete agent on @handoff/sdk: it hands a customer's request to human providers, answers
// their questions, accepts the first proposal within budget, approves each milestone submitted
// for review, and returns once the request is completed. It follows the request with the
// long-poll (`client.requests.updates`), so it needs no public webhook URL.
//
//   HANDOFF_URL=http://127.0.0.1:8080 HANDOFF_API_KEY=hk_live_... npm run agent -w @handoff/examples
import {
  createHandoffClient,
  type Event,
  type HandoffClient,
  type RequestCreate,
} from '@handoff/sdk';

export interface AgentRun {
  request_id: string;
  request_token: string;
  accepted_proposal: string;
  approved_milestones: string[];
  answered_messages: number;
  final_status: string;
}

export interface AgentOptions {
  client: HandoffClient;
  /** Called once the request exists, e.g. to tell staff which request to route. */
  onCreated?: (request: { id: string; request_token: string }) => void | Promise<void>;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

const BUDGET_MAX = 1500;

/** The customer's request the agent hands off. */
export const BAKERY_REQUEST = {
  message: 'We need a landing page for our bakery, with an order form.',
  category: 'web-development',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  contact_permission: true,
  budget_min: 500,
  budget_max: BUDGET_MAX,
} satisfies RequestCreate;

export async function runAgent(options: AgentOptions): Promise<AgentRun> {
  const { client } = options;
  const log = options.log ?? (() => undefined);
  const created = await client.requests.create(BAKERY_REQUEST);
  const id = created.id;
  log(`handed off ${id}`);
  await options.onCreated?.({ id, request_token: created.request_token });

  const run: AgentRun = {
    request_id: id,
    request_token: created.request_token,
    accepted_proposal: '',
    approved_milestones: [],
    answered_messages: 0,
    final_status: created.status,
  };

  const handle = async (event: Event) => {
    const object = event.data.object;
    switch (event.type) {
      case 'message.created':
        // Answer providers, not our own messages.
        if (object.author_role === 'provider') {
          await client.requests.sendMessage(id, {
            message: 'Thanks for asking: yes, we have bakery.example; please use it.',
          });
          run.answered_messages++;
          log(`answered a provider's message`);
        }
        return;
      case 'proposal.received': {
        const proposalId = String(object.id);
        const proposal = await client.requests.proposals.get(id, proposalId);
        if (run.accepted_proposal === '' && proposal.status === 'submitted') {
          if (proposal.amount <= BUDGET_MAX) {
            await client.requests.proposals.accept(id, proposalId);
            run.accepted_proposal = proposalId;
            log(`accepted ${proposalId} (${proposal.amount} ${proposal.currency})`);
          } else {
            await client.requests.proposals.decline(id, proposalId, { reason: 'Over budget.' });
          }
        }
        return;
      }
      case 'milestone.submitted': {
        const milestoneId = String(object.id);
        const milestone = await client.requests.milestones.get(id, milestoneId);
        if (milestone.status === 'submitted') {
          await client.requests.milestones.approve(id, milestoneId);
          run.approved_milestones.push(milestoneId);
          log(`approved ${milestoneId}`);
        }
        return;
      }
      default:
        return;
    }
  };

  for await (const event of client.requests.updates(
    id,
    options.signal ? { signal: options.signal } : {},
  )) {
    await handle(event);
    if (event.type === 'request.updated') {
      run.final_status = String(event.data.object.status);
      if (run.final_status === 'completed' || run.final_status === 'cancelled') break;
    }
  }
  log(`request ${id} is ${run.final_status}`);
  return run;
}

if (import.meta.main) {
  const baseUrl = process.env.HANDOFF_URL;
  const apiKey = process.env.HANDOFF_API_KEY;
  if (!baseUrl || !apiKey) {
    process.stderr.write('Set HANDOFF_URL and HANDOFF_API_KEY (an agent key, hk_live_...).\n');
    process.exit(2);
  }
  const run = await runAgent({
    client: createHandoffClient({ baseUrl, apiKey }),
    onCreated: ({ id }) => {
      process.stdout.write(`Created ${id}; route it to a provider as staff to continue.\n`);
    },
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
}
