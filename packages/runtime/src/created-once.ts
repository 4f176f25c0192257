import { currentOperation } from '@handoff/bus';
import type { Collection, Document, Filter, WithId } from 'mongodb';

/**
 * Creates that a retry does not repeat. A call with an `Idempotency-Key` reaches the service with
 * its operation (`Handoff-Operation`); a created document records it, and a retry of the call
 * whose first answer was lost (the service killed after its insert, a bus timeout: the gateway
 * then frees the key) finds what the first attempt made and answers it instead of making a
 * second one. `npm run chaos` found a retried proposal refused with 409 `proposal_exists` (its
 * own first attempt), and a retried create could make a second request or message.
 */
export interface CreatedByOperation {
  /** The operation of the call that created the document, when it named one. */
  created_by_operation?: string;
}

/**
 * The index each such collection carries, so that the lookup is one exact match at any size;
 * sparse, so that documents created without an operation are not in it.
 */
export const CREATED_BY_OPERATION_INDEX = {
  key: { created_by_operation: 1 },
  options: { name: 'created_by_operation', sparse: true },
} as const;

/** The field to store on a document this call creates (nothing when the call named no operation). */
export function creatingOperation(): CreatedByOperation {
  const operation = currentOperation();
  return operation === undefined ? {} : { created_by_operation: operation };
}

/** What an earlier attempt of this call's operation created in `collection`, or null. */
export async function createdEarlier<D extends Document>(
  collection: Collection<D>,
): Promise<WithId<D> | null> {
  const operation = currentOperation();
  if (operation === undefined) return null;
  return collection.findOne({ created_by_operation: operation } as unknown as Filter<D>);
}
