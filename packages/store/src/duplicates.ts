import {
  MongoBulkWriteError,
  MongoServerError,
  type Collection,
  type Document,
  type OneOrMore,
  type OptionalUnlessRequiredId,
  type WriteError,
} from 'mongodb';

/** The server's code (MongoDB's and FerretDB's) for a write that a unique index refused. */
export const DUPLICATE_KEY = 11000;

/**
 * Whether a write failed only because what it wrote is there already: a unique index refused it.
 * A bulk write (`insertMany`, `bulkWrite`) counts when every one of its write errors is one.
 */
export function isDuplicateKey(error: unknown): boolean {
  if (error instanceof MongoBulkWriteError) {
    const refused = writeErrorsOf(error);
    if (refused.length > 0) return refused.every((entry) => entry.code === DUPLICATE_KEY);
  }
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

/**
 * The positions, in an unordered bulk write, of the operations refused as duplicates. Undefined
 * when the error is not only duplicates ({@link isDuplicateKey}), or when it names no positions.
 */
export function duplicatePositions(error: unknown): number[] | undefined {
  if (!(error instanceof MongoBulkWriteError) || !isDuplicateKey(error)) return undefined;
  const refused = writeErrorsOf(error);
  return refused.length === 0 ? undefined : refused.map((entry) => entry.index);
}

/**
 * Inserts `doc` unless a unique index finds it there already: a step done again after a crash,
 * a message delivered twice. Says which it was; any other failure is thrown.
 */
export async function insertOnce<T extends Document & { _id: unknown }>(
  collection: Collection<T>,
  doc: T,
): Promise<'inserted' | 'existing'> {
  try {
    // `doc` names its _id, which is all OptionalUnlessRequiredId<T> asks; TypeScript cannot
    // resolve that conditional type for a T not known yet, so callers need not say it again.
    await collection.insertOne(doc as OptionalUnlessRequiredId<T>);
    return 'inserted';
  } catch (error) {
    if (isDuplicateKey(error)) return 'existing';
    throw error;
  }
}

/** The write errors of a bulk write, one per refused operation, each with its position. */
export function writeErrorsOf(error: MongoBulkWriteError): readonly WriteError[] {
  // "One or more": a single write error may come unwrapped, and a bulk write that failed as a
  // whole (a write concern error) has none.
  const writeErrors: OneOrMore<WriteError> | undefined = error.writeErrors;
  if (writeErrors === undefined) return [];
  return isList(writeErrors) ? writeErrors : [writeErrors];
}

// Array.isArray does not narrow a readonly array.
function isList<T>(value: OneOrMore<T>): value is readonly T[] {
  return Array.isArray(value);
}
