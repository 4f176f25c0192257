// An upload streamed through the gateway into the service that owns its parent: the body is cut
// into chunks as it arrives and each is sent on the bus while the next is read, a few at most in
// flight, so the gateway holds a bounded number of bytes whatever the file's size. The digest
// and the type are worked out on the way; the owning service keeps the bytes and the limits.
import { BusError, call, callBytes } from '@handoff/bus';
import {
  FILE_TYPES,
  type FileAccessRecord,
  type FileOpsOf,
  type FileType,
  type UploadStart,
} from '@handoff/contracts';
import {
  checkType,
  declaredTypeAcceptable,
  safeFilename,
  type TypeVerdict,
} from '@handoff/files/checks';
import type { NatsConnection } from '@nats-io/transport-node';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import type { UploadSource } from '../http/route.ts';

/** Chunks sent on the bus and not yet stored, per upload: the bytes the gateway holds. */
const IN_FLIGHT = 3;

/**
 * How long a file's chunk (and its commit) may wait for the owning service: longer than a call's
 * BUS_TIMEOUT_MS, since its write queues behind the chunks of every other upload under way.
 */
export const FILE_BUS_TIMEOUT_MS = 30_000;

/** The options of a bus call that moves a file's bytes (a chunk, a commit, a read). */
export const fileBusOptions = (bus: BusDeps) => ({
  timeoutMs: Math.max(bus.timeoutMs, FILE_BUS_TIMEOUT_MS),
  callId: bus.callId,
});

export interface BusDeps {
  nc: NatsConnection;
  timeoutMs: number;
  callId: string;
}

/** A declared type no bytes could make acceptable is refused before the body is read. */
function refuseDeclared(type: string): void {
  if (declaredTypeAcceptable(type)) return;
  throw new HttpError(
    'file_type_not_allowed',
    `Files of type ${JSON.stringify(type)} are not taken.`,
    { extra: { allowed: [...FILE_TYPES] } },
  );
}

function refusal(verdict: Exclude<TypeVerdict, { ok: true }>): HttpError {
  if (verdict.code === 'file_type_mismatch') {
    return new HttpError(
      'file_type_mismatch',
      `The bytes are ${verdict.detected ?? 'of another type'}, not what the Content-Type says.`,
      { extra: { detected: verdict.detected ?? null } },
    );
  }
  return new HttpError(
    'file_type_not_allowed',
    `The bytes are ${verdict.detected ?? 'of no type'} that is taken.`,
    { extra: { allowed: [...FILE_TYPES], detected: verdict.detected ?? null } },
  );
}

const tooLarge = (limit: number) =>
  new HttpError('file_too_large', `The file may have at most ${limit} bytes.`, {
    extra: { limit },
    // The rest of the body is only drained, within bounds (http/drain.ts): the connection ends.
    headers: { Connection: 'close' },
  });

/**
 * Receives `source` as a file of the parent `begin` names: 413 before a byte is read when the
 * declared length is over the limit and at the first byte past it otherwise, 415 as soon as the
 * bytes show a type that is not taken. Whatever fails after the service claimed the upload gives
 * it up there, so nothing of it stays visible or stored.
 */
export async function receiveUpload<B extends z.ZodType>(
  ops: FileOpsOf<B>,
  begin: Omit<z.input<B>, keyof z.input<typeof UploadStart>>,
  filename: string,
  source: UploadSource,
  bus: BusDeps,
): Promise<FileAccessRecord> {
  refuseDeclared(source.type);
  const options = { timeoutMs: bus.timeoutMs, callId: bus.callId };
  const bytesOptions = fileBusOptions(bus);
  const started = await call(
    bus.nc,
    ops.begin,
    {
      ...begin,
      filename: safeFilename(filename),
      declared_type: source.type,
      ...(source.length === undefined ? {} : { declared_length: source.length }),
    } as z.input<B>,
    options,
  ).catch((error: unknown) => {
    if (error instanceof BusError && error.code === 'file_too_large') {
      const limit = Number(error.details?.limit ?? 0);
      throw tooLarge(limit);
    }
    throw error;
  });
  const fileId = started.file_id;
  const inFlight: Promise<unknown>[] = [];
  try {
    const sent = await streamChunks(source, started, (n, bytes) => {
      inFlight.push(callBytes(bus.nc, ops.chunk, { file_id: fileId, n }, bytes, bytesOptions));
      return inFlight.length >= IN_FLIGHT ? inFlight.shift() : undefined;
    });
    await Promise.all(inFlight.splice(0));
    return await call(bus.nc, ops.commit, { file_id: fileId, ...sent }, bytesOptions);
  } catch (error) {
    // Every chunk sent has landed or failed before the upload is given up, so none outlives it.
    await Promise.allSettled(inFlight);
    await call(bus.nc, ops.abort, { file_id: fileId }, options).catch(() => undefined);
    throw error;
  }
}

interface Sent {
  size: number;
  chunks: number;
  sha256: string;
  content_type: FileType;
}

/**
 * Reads the body into chunks of `chunk_bytes`, handing each to `send` (which answers a promise to
 * wait for when too many are in flight), and answers what the file turned out to be.
 */
async function streamChunks(
  source: UploadSource,
  started: { chunk_bytes: number; max_bytes: number },
  send: (n: number, bytes: Uint8Array) => Promise<unknown> | undefined,
): Promise<Sent> {
  const { chunk_bytes: chunkBytes, max_bytes: maxBytes } = started;
  const hash = createHash('sha256');
  const type = checkType(source.type);
  // A few chunk buffers, taken in turn: one is filled again only once its chunk's call has been
  // answered (`send` makes the loop wait for the oldest of IN_FLIGHT), and the bus client copies
  // a message's bytes out when it flushes, right after the publish. No buffer per chunk to
  // collect: a 50 MiB upload holds the same few KiB of them from start to end.
  const ring = Array.from({ length: IN_FLIGHT + 1 }, () => Buffer.allocUnsafe(chunkBytes));
  let buffer = ring[0] ?? Buffer.allocUnsafe(chunkBytes);
  let filled = 0;
  let size = 0;
  let chunks = 0;
  const flush = async () => {
    const bytes = buffer.subarray(0, filled);
    const verdict = type.update(bytes);
    if (verdict && !verdict.ok) throw refusal(verdict);
    hash.update(bytes);
    const wait = send(chunks, bytes);
    chunks += 1;
    buffer = ring[chunks % ring.length] ?? Buffer.allocUnsafe(chunkBytes);
    filled = 0;
    if (wait) await wait;
  };
  for await (const piece of source.stream) {
    size += piece.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    let offset = 0;
    while (offset < piece.length) {
      const taken = Math.min(chunkBytes - filled, piece.length - offset);
      buffer.set(piece.subarray(offset, offset + taken), filled);
      filled += taken;
      offset += taken;
      if (filled === chunkBytes) await flush();
    }
  }
  if (filled > 0) await flush();
  const verdict = type.finish();
  if (!verdict.ok) throw refusal(verdict);
  return { size, chunks, sha256: hash.digest('hex'), content_type: verdict.type };
}
