/**
 * Sending one stock write from a screen (docs/product.md "Offline use",
 * docs/decisions/055-every-write-kept-first.md): the write is kept in the outbox with a new
 * Idempotency-Key before it is sent, and sent after any change made before it; a page that closes
 * while it is on its way leaves it kept, and the next page sends it with the same key, which the
 * server answers without writing it twice. Offline, or when the network fails, it stays kept and
 * the caller learns that by the ChangeKept it throws.
 */
import type { core } from 'zod/mini';
import { apiFetch, validated } from './api-fetch';
import { ApiError, isNetworkError } from './api-error';
import { outboxUser, sendChange, type SendResult } from './outbox/outbox';
import { wantOutbox } from './outbox/outbox-demand';
import type { PendingChangeKind } from './outbox/pending-change';
import { signedInUserId } from './signed-in-user';

// A screen that writes stock has its changes sent by the outbox from its first tap.
wantOutbox();

/** Thrown when the write was kept on the phone instead of answered: the screen shows it as made. */
export class ChangeKept extends Error {
  readonly kept = true;

  constructor() {
    super('Saved on this phone. It will be sent when the network is back.');
  }
}

/**
 * Thrown when the network failed and the write could not be kept (IndexedDB missing or refusing,
 * or nobody signed in): nothing is kept. Sending it again with `key` (sendStockWrite's
 * `idempotencyKey`) writes it once, even if the first request reached the server.
 */
export class ChangeNotSent extends ApiError {
  constructor(
    readonly key: string,
    status: number,
  ) {
    super('NETWORK_ERROR', 'The network failed: the change was not saved. Tap Retry to send it again.', status);
  }
}

/** Whether `error` says the write was kept in the outbox (not a failure). */
export function isChangeKept(error: unknown): error is ChangeKept {
  return error instanceof ChangeKept;
}

/** What the outbox's lists say of the write while it is kept. */
export interface StockWriteDescription {
  kind: PendingChangeKind;
  label: string;
  href: string;
}

/** Keeps and sends the write through the outbox; undefined when it could not be kept. */
async function throughOutbox(userId: string, key: string, path: string, body: unknown, description: StockWriteDescription): Promise<SendResult | undefined> {
  try {
    return await sendChange(userId, key, { ...description, path, body });
  } catch {
    return undefined;
  }
}

/**
 * POSTs `body` to `path` as a stock write, with `idempotencyKey` (a retry of a ChangeNotSent) or a
 * new one.
 * @returns the server's answer, validated by `schema`
 * @throws ChangeKept when it was kept to be sent later; ChangeNotSent when the network failed and
 *   it could not be kept; ApiError for a refusal (nothing written, nothing kept)
 */
export async function sendStockWrite<T>(
  path: string,
  request: { body?: unknown; schema: core.$ZodType<T>; idempotencyKey?: string },
  description: StockWriteDescription,
): Promise<T> {
  const key = request.idempotencyKey ?? crypto.randomUUID();
  const userId = outboxUser() ?? signedInUserId();
  const result = userId === null ? undefined : await throughOutbox(userId, key, path, request.body, description);
  if (result) {
    if ('kept' in result) throw new ChangeKept();
    if ('error' in result) throw result.error;
    return validated(request.schema, result.answer);
  }
  try {
    return await apiFetch(path, { method: 'POST', body: request.body, schema: request.schema, idempotencyKey: key });
  } catch (error) {
    if (error instanceof ApiError && isNetworkError(error)) throw new ChangeNotSent(key, error.status);
    throw error;
  }
}
