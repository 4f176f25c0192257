// The outbox backlog as metrics, read at scrape time from the outboxes running in this process,
// so that writing and publishing a message pays nothing for them.
import { handoffMeter, type Attributes } from '@handoff/observability';
import type { SweepResult } from './drain.ts';
import type { WriterRegistry } from './writers.ts';

/** What a running outbox shows: its writer registry, and what its last sweep published. */
interface Watched {
  registry: Pick<WriterRegistry, 'markedCount' | 'leftCount'>;
  lastSweep: SweepResult | undefined;
}

const running = new Set<Watched>();
let gaugesMade = false;

const UNPUBLISHED: Record<'marked' | 'left', Attributes> = {
  marked: { state: 'marked' },
  left: { state: 'left' },
};
const SWEPT: Record<keyof SweepResult, Attributes> = {
  pending: { found: 'pending' },
  left: { found: 'left' },
  adopted: { found: 'adopted' },
  settled: { found: 'settled' },
};

export interface OutboxBacklog {
  /** Keeps what a sweep published, for the next scrape. */
  swept(result: SweepResult): void;
  /** Counts this outbox in the process's metrics until the returned function is called. */
  watch(): () => void;
}

/**
 * The backlog metrics of one outbox: `handoff.outbox.unpublished` (kept messages this process
 * holds unpublished, by `state`) and `handoff.outbox.swept` (what its last sweep found left
 * behind and published, by how it `found` them). Summed over the outboxes running in a process.
 */
export function outboxBacklog(registry: Watched['registry']): OutboxBacklog {
  const watched: Watched = { registry, lastSweep: undefined };
  return {
    swept(result) {
      watched.lastSweep = result;
    },
    watch() {
      ensureGauges();
      running.add(watched);
      return () => running.delete(watched);
    },
  };
}

function ensureGauges(): void {
  if (gaugesMade) return;
  gaugesMade = true;
  const meter = handoffMeter();
  meter
    .createObservableGauge('handoff.outbox.unpublished', {
      description:
        'Kept outbox messages this process wrote and has not published: marked (written, ' +
        'publish not yet confirmed) or left (the publish failed; the next sweep publishes them).',
    })
    .addCallback((result) => {
      if (running.size === 0) return;
      let marked = 0;
      let left = 0;
      for (const { registry } of running) {
        marked += registry.markedCount;
        left += registry.leftCount;
      }
      result.observe(marked, UNPUBLISHED.marked);
      result.observe(left, UNPUBLISHED.left);
    });
  meter
    .createObservableGauge('handoff.outbox.swept', {
      description:
        "Messages the outbox's last sweep found that no call had published, and published: " +
        'pending documents, failed kept publishes (left), dead writers (adopted), and writes ' +
        'whose publish never came (settled). Above 0 sweep after sweep: publishes are failing.',
    })
    .addCallback((result) => {
      if (running.size === 0) return;
      const totals: SweepResult = { pending: 0, left: 0, adopted: 0, settled: 0 };
      for (const { lastSweep } of running) {
        if (lastSweep === undefined) continue;
        totals.pending += lastSweep.pending;
        totals.left += lastSweep.left;
        totals.adopted += lastSweep.adopted;
        totals.settled += lastSweep.settled;
      }
      for (const found of Object.keys(SWEPT) as (keyof SweepResult)[]) {
        result.observe(totals[found], SWEPT[found]);
      }
    });
}
