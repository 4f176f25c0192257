import type { CallToolResult } from '@modelcontextprotocol/server';
import { pendingInputs } from './inputs.ts';
import { fileNames, lastUpdatedAt, type Snapshot } from './snapshot.ts';

/** Where a task names its request (`_meta`), for a client that also uses the other tools. */
export const REQUEST_META = 'dev.handoff/request';

/** How often a client should poll `tasks/get`: a human's next step takes seconds at least. */
export const POLL_INTERVAL_MS = 2_000;

type Status = 'working' | 'input_required' | 'completed' | 'cancelled';

/** The task's common fields (the extension's `Task`); the request lives on, so no TTL. */
export function taskFields(taskId: string, status: Status, createdAt: string, updatedAt: string) {
  return {
    taskId,
    status,
    createdAt,
    lastUpdatedAt: updatedAt,
    ttlMs: null,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
}

const WORKING_MESSAGES: Record<string, string> = {
  submitted: 'Waiting for a provider to take the request.',
  routed: 'Offered to a provider; waiting for its answer or proposal.',
  in_progress: 'A provider is working on it.',
};

/**
 * The deliverables as the tool's final result: structured, with a link to each that has a URL
 * (a deliverable may be files only: their names are in the text, list_files downloads them). It
 * is the `CallToolResult` the call would have answered, so it says `resultType: "complete"` too.
 */
function completedResult(snapshot: Snapshot): CallToolResult & { resultType: 'complete' } {
  const { request, deliverables, milestones } = snapshot;
  const structured = {
    request_id: request.id,
    status: request.status,
    milestones: milestones.map(({ id, title, status, amount, currency }) => ({
      id,
      title,
      status,
      amount,
      currency,
    })),
    deliverables: deliverables.map(
      ({ id, milestone_id, title, url, files, description, status }) => ({
        id,
        milestone_id,
        title,
        url,
        ...(files && files.length > 0 ? { files } : {}),
        description,
        status,
      }),
    ),
  };
  const named = deliverables.flatMap((deliverable) => fileNames(deliverable.files));
  const withFiles =
    named.length > 0
      ? ` Their files: ${named.join(', ')} (list_files answers a download URL for each).`
      : '';
  return {
    resultType: 'complete',
    content: [
      {
        type: 'text',
        text: `The request ${request.id} is completed with ${deliverables.length} deliverable(s).${withFiles}\n${JSON.stringify(structured, null, 2)}`,
      },
      ...deliverables.flatMap((deliverable) =>
        typeof deliverable.url === 'string'
          ? [
              {
                type: 'resource_link' as const,
                uri: deliverable.url,
                name: deliverable.title,
                ...(deliverable.description ? { description: deliverable.description } : {}),
              },
            ]
          : [],
      ),
    ],
    structuredContent: structured,
  };
}

/**
 * The task as `tasks/get` answers it, from the request's state: cancelled and completed follow
 * the request; otherwise what waits on the agent makes it `input_required`, else `working`.
 */
export function detailedTask(taskId: string, snapshot: Snapshot) {
  const { request } = snapshot;
  const at = (status: Status) => ({
    ...taskFields(taskId, status, request.created_at, lastUpdatedAt(snapshot)),
    // The request's id, to match the task with webhooks and the other tools.
    _meta: { [REQUEST_META]: { id: request.id } },
  });
  if (request.status === 'cancelled') {
    return { ...at('cancelled'), statusMessage: 'The request was cancelled.' };
  }
  if (request.status === 'completed') {
    return {
      ...at('completed'),
      statusMessage: 'The request is completed.',
      result: completedResult(snapshot),
    };
  }
  const inputs = pendingInputs(snapshot);
  if (inputs.length > 0) {
    return {
      ...at('input_required'),
      statusMessage: `Waiting on you: ${inputs.length} question(s) in inputRequests.`,
      inputRequests: Object.fromEntries(inputs.map((input) => [input.key, input.request])),
    };
  }
  return {
    ...at('working'),
    statusMessage: WORKING_MESSAGES[request.status] ?? `The request is ${request.status}.`,
  };
}
