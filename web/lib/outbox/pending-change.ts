/**
 * Stock changes kept on the phone until the server has answered them (docs/product.md "Offline
 * use"): what one is, and the rules that decide when one may be sent and what becomes of it when
 * it is. Pure: the store (outbox.ts) keeps them in IndexedDB and sends them.
 */
import { IDEMPOTENCY_KEEP_HOURS } from '../../../common/idempotency';
import { ApiError, isNetworkError } from '../api-error';

/** What the person did, as the lists name it. */
export type PendingChangeKind = 'taps' | 'restock' | 'fill-to-minimum' | 'count' | 'pick-list-delivery' | 'undo';

/** One stock write, kept from the moment it is made until the server has answered it. */
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
  /**
   * When it was first handed to the network, ISO 8601 in UTC; absent while it never was. A change
   * sent may have been written without its answer arriving: its key then protects it only while
   * the server keeps keys ({@link mayBeWrittenUnknown}).
   */
  sentAt?: string;
  /**
   * Taps of one stock row adding up into this change (docs/product.md "Screens: Unit detail"):
   * `group` names the row, `count` is the signed sum of the taps (+ from the garage, − used).
   */
  tally?: { group: string; count: number };
  /**
   * Milliseconds since 1970 (UTC) until which the change still adds up taps and is not sent. The
   * page that adds to it seals it when the taps pause; another page sends it only
   * {@link OPEN_GRACE_MS} after this time, when the page that opened it is gone.
   */
  openUntil?: number;
}

/** What sending one change led to. */
export type SendOutcome =
  /** The network is gone or the server was not reached: stop, and send again when it is back. */
  | 'offline'
  /** The server asks to wait (busy, restarting, the same key still being written, signed out): stop and try again later. */
  | 'later'
  /** The server refused it for good (stock rules, role, plan): it goes to "Not sent" with the reason. */
  | 'refused';

const LATER_CODES = new Set(['UNAVAILABLE', 'IDEMPOTENCY_KEY_IN_USE', 'RATE_LIMITED', 'REQUEST_TIMEOUT', 'UNAUTHENTICATED']);

/** How long after its `openUntil` a change left open by another page counts as sealed, in ms. */
export const OPEN_GRACE_MS = 1000;

/**
 * Why a change sent once without an answer is not sent again by itself once the server may have
 * forgotten its key (common/idempotency.ts: keys are kept IDEMPOTENCY_KEEP_HOURS).
 */
export const UNANSWERED_TOO_LONG = 'Sent over a day ago without an answer, so it may already be saved: check the stock, then send it again or discard it.';

/** The outcome of a send that failed with `error` (an ApiError from apiFetch, or anything else). */
export function outcomeOf(error: unknown): SendOutcome {
  if (!(error instanceof ApiError)) return 'refused';
  // No answer, or a gateway's: the server was not reached.
  if (isNetworkError(error)) return 'offline';
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

/** Whether `change`, left open by a page, still adds up taps at `now` (ms since 1970) as far as another page can tell. */
export function isOpen(change: PendingChange, now: number): boolean {
  return change.openUntil !== undefined && now < change.openUntil + OPEN_GRACE_MS;
}

/**
 * Whether `change` was sent so long ago (`now`, ms since 1970) without an answer that the server
 * may have forgotten its key (an hour's margin on IDEMPOTENCY_KEEP_HOURS): sent again, it could be
 * written twice, so the person decides.
 */
export function mayBeWrittenUnknown(change: PendingChange, now: number): boolean {
  return change.sentAt !== undefined && now - Date.parse(change.sentAt) > (IDEMPOTENCY_KEEP_HOURS - 1) * 3_600_000;
}

/** The signed sum of the unsent taps of `group` (a stock row) in `changes`, `except` one change. */
export function unsentTally(changes: readonly PendingChange[], group: string, except?: string): number {
  return changes.reduce((sum, c) => (c.tally?.group === group && c.refusal === undefined && c.id !== except ? sum + c.tally.count : sum), 0);
}

/** "1 change waiting to be sent", "3 changes waiting to be sent". */
export function waitingText(count: number): string {
  return `${count} ${count === 1 ? 'change' : 'changes'} waiting to be sent`;
}

/** "1 change saved on this phone was sent.", "2 changes saved on this phone were sent." */
export function sentEarlierText(count: number): string {
  return count === 1 ? '1 change saved on this phone was sent.' : `${count} changes saved on this phone were sent.`;
}
