// examples/agent.ts against the local stack, with staff and a provider on the other side: the
// agent must answer the provider, accept the proposal, approve the milestone and see the request
// complete, all on its own.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import { createHandoffClient, toArray } from '@handoff/sdk';
import { eventually } from '@handoff/testkit';
import { runAgent } from '../agent.ts';
import { startLocalStack, STACK_SETUP_MS, type LocalStack } from './support.ts';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack('agent');
}, STACK_SETUP_MS);

afterAll(async () => {
  await stack?.stop();
});

describe('the example agent', () => {
  it('hands off, answers, accepts, approves and waits for completion', async () => {
    await stack.withServiceLines(async () => {
      const other = await stack.humans();
      const client = createHandoffClient({
        baseUrl: stack.base,
        apiKey: await stack.agentKey(SCOPES, 'Example agent'),
      });
      let routed: (id: string) => void = () => undefined;
      const requestId = new Promise<string>((resolve) => (routed = resolve));
      const agent = runAgent({
        client,
        onCreated: async ({ id }) => {
          await other.route(id);
          routed(id);
        },
      });
      const id = await requestId;
      const { provider } = other;

      await other.say(id, 'Do you already have a domain name?');
      // The agent's answer arrives in the conversation.
      await eventually(async () => {
        const read = await client.requests.get(id);
        expect(read.conversation.map((message) => message.message)).toEqual([
          'Do you already have a domain name?',
          expect.stringContaining('bakery.example'),
        ]);
        return read;
      });

      await provider.requests.propose(id, {
        message: 'A one-page site with an order form, in two weeks.',
        amount: 1200,
        currency: 'USD',
        milestones: [{ title: 'Design and build the page', amount: 1200, due_in_days: 14 }],
      });
      const job = await eventually(async () => {
        const jobs = await toArray(client.requests.jobs.list(id));
        expect(jobs).toHaveLength(1);
        return jobs[0];
      });
      // The job's milestones are made just after it: wait for them as for the job.
      const milestones = await eventually(async () => {
        const listed = await toArray(client.requests.milestones.list(id));
        expect(listed).toHaveLength(1);
        return listed;
      });
      const milestoneId = milestones[0]?.id ?? '';
      await provider.milestones.addDeliverable(milestoneId, {
        title: 'The page',
        url: 'https://preview.example.com/bakery',
      });
      await provider.milestones.submit(milestoneId);
      await eventually(async () => {
        const milestone = await provider.milestones.get(milestoneId);
        expect(milestone.status).toBe('approved');
        return milestone;
      });
      await provider.jobs.complete(job?.id ?? '');

      const run = await agent;
      expect(run).toMatchObject({
        request_id: id,
        final_status: 'completed',
        approved_milestones: [milestoneId],
        answered_messages: 1,
      });
      expect(run.accepted_proposal).toMatch(/^prp_/);
    });
  }, 240_000);
});
