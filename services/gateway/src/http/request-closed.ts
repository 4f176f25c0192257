import {
  isRequestClosed,
  REQUEST_CLOSED,
  requestClosedDetail,
  type RequestStatus,
} from '@handoff/contracts';
import { HttpError } from './errors.ts';

/** 409 `request_closed`, naming the state, for an action that a closed request refuses. */
export function refuseClosed(status: RequestStatus): void {
  if (isRequestClosed(status)) {
    throw new HttpError(REQUEST_CLOSED, requestClosedDetail(status), {
      extra: { current_state: status },
    });
  }
}
