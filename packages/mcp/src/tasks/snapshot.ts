import {
  toArray,
  type Deliverable,
  type HandoffClient,
  type Milestone,
  type Proposal,
  type RequestDetail,
} from '@handoff/sdk';
import type { TaskRef } from './task-id.ts';

/** Everything a task's state is made of, as the agent API answers it right now. */
export interface Snapshot {
  request: RequestDetail;
  proposals: Proposal[];
  milestones: Milestone[];
  deliverables: Deliverable[];
}

/** One read of the request and its work, in parallel: the task keeps no state of its own. */
export async function readSnapshot(client: HandoffClient, ref: TaskRef): Promise<Snapshot> {
  const { requestId: id } = ref;
  const opts = { token: ref.requestToken };
  const { requests } = client;
  const [request, proposals, milestones, deliverables] = await Promise.all([
    requests.get(id, opts),
    toArray(requests.proposals.list(id, {}, opts)),
    toArray(requests.milestones.list(id, {}, opts)),
    toArray(requests.deliverables.list(id, {}, opts)),
  ]);
  return { request, proposals, milestones, deliverables };
}

/** The latest change to the request or its work. */
export function lastUpdatedAt(snapshot: Snapshot): string {
  const times = [
    snapshot.request.updated_at,
    ...snapshot.request.conversation.map((message) => message.created_at),
    ...snapshot.proposals.map((proposal) => proposal.updated_at),
    ...snapshot.milestones.map((milestone) => milestone.updated_at),
    ...snapshot.deliverables.map((deliverable) => deliverable.updated_at),
  ];
  return times.reduce((latest, time) => (time > latest ? time : latest));
}

/** A deliverable's files by name (their metadata only; list_files answers their download URLs). */
export const fileNames = (files: readonly { filename: string }[] | undefined) =>
  (files ?? []).map((file) => file.filename);
