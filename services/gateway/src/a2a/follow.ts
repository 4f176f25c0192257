import { StreamResponse } from '@a2a-js/sdk';
import { a2aStreamResponseOf, a2aUpdateOf, UPDATES_LIMITS } from '@handoff/contracts';
import type { A2aCall } from './invoke.ts';
import { isFinalOrInterrupted, type TaskStatus } from './task.ts';
import { eventsAfter, type OwnedTask, type TaskDeps } from './tasks.ts';

export interface FollowDeps extends TaskDeps {
  /** True once the gateway stops: waiting long-polls then answer at once with nothing. */
  stopping(): boolean;
}

/** Where a follow stands: the last event sequence seen, and the status it implied. */
export interface Progress {
  after: number;
  status: TaskStatus | undefined;
}

/**
 * The task's updates after `progress.after`, as the request's events arrive (the agent's
 * long-poll, in this process): each event as the status or artifact update it implies, until one
 * makes the task final or interrupted, the client goes away, the gateway stops, or `deadline`
 * (Unix ms) passes. `progress` is kept up to date for the caller.
 */
export async function* followTask(
  deps: FollowDeps,
  call: A2aCall,
  owned: OwnedTask,
  progress: Progress,
  deadline = Number.POSITIVE_INFINITY,
): AsyncGenerator<StreamResponse, void, undefined> {
  let gone = false;
  call.res.once('close', () => {
    gone = true;
  });
  while (!gone && !deps.stopping()) {
    const left = deadline - Date.now();
    if (left <= 0) return;
    const wait = Math.max(1, Math.min(UPDATES_LIMITS.maxWaitSeconds, Math.floor(left / 1000)));
    const page = await eventsAfter(deps, call, owned, progress.after, wait);
    for (const event of page.data) {
      progress.after = event.data.sequence;
      yield StreamResponse.fromJSON(a2aStreamResponseOf(event, owned.ref));
      const update = a2aUpdateOf(event);
      if (update.kind !== 'status') continue;
      progress.status = {
        state: update.state,
        ...(update.message ? { message: update.message } : {}),
        timestamp: event.timestamp,
      };
      if (isFinalOrInterrupted(update.state)) return;
    }
  }
}
