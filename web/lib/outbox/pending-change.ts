/**
 * Stock changes kept on the phone until they are sent (docs/product.md "Offline use"): what one
 * is, and the rules that decide what becomes of it when it is sent. Pure: the store
 * (outbox.ts) keeps them in IndexedDB and sends them.
 */
import { ApiError } from '../api-error';

/** What the person did, as the lists name it. */
export type PendingChangeKind = 'taps' | 'restock' | 'fill-to-minimum' | 'count' | 'pick-list-delivery';

/** One stock write made while the network was gone (or failed), waiting to be sent. */
export interface PendingChange {
  /** A UUID, sent as its Idempotency-Key every time: the server writes it once however often it arrives. */
  id: string;
  /** The signed-in user who made it; only they see and send it. */
  userId: string;
  /** Order of making, across tabs: milliseconds since 1970 (UTC) times 1000 plus a counter. */
  seq: number;
  /** When it was made, ISO 8601 in UTC. */
  madeAt: string;
  kind: PendingChangeKind;
  /** The API path of the write, e.g. '/api/units/…/inventory/…/transfer'; always a POST. */
  path: string;
  /** The JSON body, as the online request would have sent it (undefined: none). */
  body: unknown;
  /** What it does, in the words of the screen: '3 Bath Towel moved from Main Storage'. */
  label: string;
  /** Where it was made and can be checked: a property's page or its count screen. */
  href: string;
  /** The server's refusal, once it refused it: the change is then "Not sent" until retried or discarded. */
  refusal?: { message: string; at: string };
}

/** What sending one change led to. */
export type SendOutcome =
  /** The network is gone: stop, and send again when it is back. */
  | 'offline'
  /** The server asks to wait (busy, restarting, the same key still being written, signed out): stop and try again later. */
  | 'later'
  /** The server refused it for good (stock rules, role, plan): it goes to "Not sent" with the reason. */
  | 'refused';

const LATER_CODES = new Set(['UNAVAILABLE', 'IDEMPOTENCY_KEY_IN_USE', 'RATE_LIMITED', 'REQUEST_TIMEOUT', 'UNAUTHENTICATED']);

/** The outcome of a send that failed with `error` (an ApiError from apiFetch, or anything else). */
export function outcomeOf(error: unknown): SendOutcome {
  if (!(error instanceof ApiError)) return 'refused';
  if (error.code === 'NETWORK_ERROR') return 'offline';
  return LATER_CODES.has(error.code) ? 'later' : 'refused';
}

/** The changes of `userId` in the order they were made. */
export function changesOf(all: readonly PendingChange[], userId: string): PendingChange[] {
  return all.filter((c) => c.userId === userId).sort((a, b) => a.seq - b.seq);
}

/** Those still to be sent (not refused), in order. */
export function waiting(changes: readonly PendingChange[]): PendingChange[] {
  return changes.filter((c) => c.refusal === undefined);
}

/** Those the server refused, in order. */
export function notSent(changes: readonly PendingChange[]): PendingChange[] {
  return changes.filter((c) => c.refusal !== undefined);
}

/** "1 change waiting to be sent", "3 changes waiting to be sent". */
export function waitingText(count: number): string {
  return `${count} ${count === 1 ? 'change' : 'changes'} waiting to be sent`;
}
