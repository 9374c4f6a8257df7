/**
 * Sending one stock write from a screen (docs/product.md "Offline use"): online it goes at once
 * with a new Idempotency-Key; when the phone is offline, the request fails on the network, or
 * older changes are still waiting, it is kept in the outbox with that same key and sent in order
 * later — a request that reached the server before the network failed is then answered, not
 * written again. The caller learns that by the ChangeKept it throws.
 */
import type { core } from 'zod/mini';
import { apiFetch } from './api-fetch';
import { ApiError, isNetworkError } from './api-error';
import { keepChange, outboxSnapshot, outboxStarted, outboxUser } from './outbox/outbox';
import { wantOutbox } from './outbox/outbox-demand';
import type { PendingChangeKind } from './outbox/pending-change';

/**
 * How long a write waits for the outbox to start, in ms: it starts when this module loads (below),
 * so only a write made in the first moments of a page can find it still starting.
 */
const OUTBOX_START_WAIT_MS = 5000;

// A screen that writes stock may have to keep a change on the phone from its first tap.
wantOutbox();

/** Thrown when the write was kept on the phone instead of answered: the screen shows it as made. */
export class ChangeKept extends Error {
  readonly kept = true;

  constructor() {
    super('Saved on this phone. It will be sent when the network is back.');
  }
}

/**
 * Thrown when the network failed and the outbox could not keep the write (it had not started, e.g.
 * its code still on its way over a weak signal): nothing is kept. Sending it again with `key`
 * (sendStockWrite's `idempotencyKey`) writes it once, even if the first request reached the server.
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

/** What the outbox's lists say of the write, should it be kept. */
export interface StockWriteDescription {
  kind: PendingChangeKind;
  label: string;
  href: string;
}

/**
 * POSTs `body` to `path` as a stock write, with `idempotencyKey` (a retry of a ChangeNotSent) or a
 * new one.
 * @returns the server's answer, validated by `schema`
 * @throws ChangeKept when it was kept to be sent later; ChangeNotSent when the network failed and
 *   it could not be kept; ApiError for a refusal (nothing written)
 */
export async function sendStockWrite<T>(
  path: string,
  request: { body?: unknown; schema: core.$ZodType<T>; keepalive?: boolean; idempotencyKey?: string },
  description: StockWriteDescription,
): Promise<T> {
  const key = request.idempotencyKey ?? crypto.randomUUID();
  const keep = async (): Promise<never> => {
    await keepChange(key, { ...description, path, body: request.body });
    throw new ChangeKept();
  };
  await outboxStarted(OUTBOX_START_WAIT_MS);
  const signedIn = outboxUser() !== null;
  // Behind changes still waiting, it waits too: the server sees them in the order they were made.
  if (signedIn && (!navigator.onLine || outboxSnapshot().waiting.length > 0)) return keep();
  try {
    return await apiFetch(path, { method: 'POST', body: request.body, schema: request.schema, keepalive: request.keepalive, idempotencyKey: key });
  } catch (error) {
    if (!(error instanceof ApiError) || !isNetworkError(error)) throw error;
    if (signedIn) return keep();
    throw new ChangeNotSent(key, error.status);
  }
}
