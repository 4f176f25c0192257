// What the load saw: every write the API acknowledged, every long-poll, every call it gave up on.
// The checks at the end compare this record with what the endpoints received and the stores hold.

/** The writes the load makes, each acknowledged with a 2xx. */
export type WriteKind =
  | 'request'
  | 'route'
  | 'message'
  | 'proposal'
  | 'accept'
  | 'payment_request'
  | 'payment_approval'
  | 'payment_confirm'
  | 'deliverable'
  | 'submit'
  | 'milestone_approval'
  | 'job_complete';

export interface AckedWrite {
  kind: WriteKind;
  requestId: string;
  /** The id the answer gave (the request, message, proposal, payment, milestone or job). */
  id: string;
  /** The text the write carried, unique in the run: how the stores are searched for it. */
  text?: string;
  /** `Date.now()` when the 2xx arrived. */
  ackedAt: number;
}

/** One long-poll: `GET /v1/request/{id}/updates?after&wait`. */
export interface Poll {
  requestId: string;
  after: number;
  startedAt: number;
  endedAt: number;
  /** How many events it returned (0: it waited its whole time). */
  events: number;
  /** The error it ended with, if it did not answer. */
  error?: string;
}

export class Ledger {
  readonly writes: AckedWrite[] = [];
  readonly polls: Poll[] = [];
  /** Calls the SDK gave up on after its retries: unacknowledged, so they may or may not be there. */
  readonly abandoned: string[] = [];
  /** Answers no fault explains (a 4xx the load did not expect): each is a finding. */
  readonly unexpected: string[] = [];
  /** Engagements driven to their end. */
  completed = 0;

  acked(write: Omit<AckedWrite, 'ackedAt'>): void {
    this.writes.push({ ...write, ackedAt: Date.now() });
  }

  ofKind(kind: WriteKind): AckedWrite[] {
    return this.writes.filter((write) => write.kind === kind);
  }

  /** The acknowledged writes of each request, in the order they were acknowledged. */
  byRequest(): Map<string, AckedWrite[]> {
    const map = new Map<string, AckedWrite[]>();
    for (const write of this.writes) {
      const list = map.get(write.requestId) ?? [];
      list.push(write);
      map.set(write.requestId, list);
    }
    return map;
  }
}
