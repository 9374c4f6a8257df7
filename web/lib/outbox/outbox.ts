/**
 * The outbox: every stock write made on this phone, kept in IndexedDB (idb-keyval) from the moment
 * the screen shows it until the server has answered it, and sent in the order made, each with its
 * own Idempotency-Key (docs/product.md "Offline use", docs/decisions/047-idempotency-keys.md,
 * docs/decisions/055-every-write-kept-first.md). A page that closes, reloads or loses the network
 * at any moment leaves its writes here, and the next page sends them; the key makes a write that
 * had reached the server answered, not written again. Quick taps on one stock row add up in one
 * kept change while they come (`addToTally`), sealed and sent when they pause. Every tab of the
 * app sees the same changes (a BroadcastChannel says when they change) and only one sends at a
 * time (a Web Lock). A change the server refuses after its page is gone stays, "Not sent", with
 * the server's reason, until the person retries or discards it: nothing is dropped silently.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createStore, del, set, values, type UseStore } from 'idb-keyval';
import { apiFetch } from '../api-fetch';
import { invalidateStock } from '../stock-cache';
import {
  changesOf,
  isOpen,
  mayBeWrittenUnknown,
  notSent,
  OPEN_GRACE_MS,
  outcomeOf,
  UNANSWERED_TOO_LONG,
  unsentTally,
  waiting,
  type PendingChange,
  type PendingChangeKind,
} from './pending-change';

/** The two lists the screens show, for the signed-in user. */
export interface OutboxSnapshot {
  /** Kept and not yet answered, other than those a screen of this page is showing the progress of itself. */
  waiting: PendingChange[];
  notSent: PendingChange[];
  /** False until the kept changes have been read from IndexedDB once after the outbox started. */
  ready: boolean;
}

/** What a write is: the part of a PendingChange its screen gives. */
export interface ChangeContent {
  kind: PendingChangeKind;
  path: string;
  body: unknown;
  label: string;
  href: string;
}

/**
 * What became of a change a screen of this page waits on: the server's answer (JSON, not yet
 * validated); kept to be sent later (no network, the server not reached or asking to wait); or
 * the server's refusal (an ApiError), after which nothing is kept.
 */
export type SendResult = { answer: unknown } | { kept: true } | { error: unknown };

/** Hears what became of a change, given as it was sent (its tally included). */
export type Settler = (result: SendResult, change: PendingChange) => void;

/** Seconds before sending again after the server asked to wait or the network failed while `onLine` said otherwise. */
const RETRY_SECONDS = 5;

/** Largest JSON body sent with `keepalive` (browsers allow 64 KiB for all such requests in flight together). */
const KEEPALIVE_MAX_CHARS = 32_000;

const EMPTY: OutboxSnapshot = { waiting: [], notSent: [], ready: false };

let store: UseStore | undefined;
let all: PendingChange[] = [];
let user: string | null = null;
let client: QueryClient | undefined;
let snapshot: OutboxSnapshot = EMPTY;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let openTimer: ReturnType<typeof setTimeout> | undefined;
let seqCounter = 0;
let ready = false;
let round: Promise<void> | null = null;
let roundAgain = false;
let leaveListening = false;
/** IndexedDB writes under way, per change id: until they land, this page's copy is the true one. */
const unsaved = new Map<string, number>();
/** Changes this page has handed to the network and not yet had answered. */
const inFlight = new Set<string>();
/** What to tell the screen of this page waiting on a change, per change id. */
const settlers = new Map<string, Settler>();
/** This page's changes still adding up taps, per group (a stock row), with the timer that seals each. */
const openHere = new Map<string, { id: string; timer: ReturnType<typeof setTimeout> }>();
const listeners = new Set<() => void>();
const sentEarlierListeners = new Set<(count: number) => void>();
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('stock-keeper-outbox');

/** The IndexedDB store, opened on first use (never at import: tests and old browsers have none). */
function db(): UseStore {
  return (store ??= createStore('stock-keeper-outbox', 'changes'));
}

function online(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine;
}

function publish(): void {
  const mine = user === null ? [] : changesOf(all, user);
  const held = waiting(mine).filter((c) => !settlers.has(c.id) && !inFlight.has(c.id));
  snapshot = { waiting: held, notSent: notSent(mine), ready };
  for (const listener of listeners) listener();
}

/** Reads every kept change from IndexedDB into memory; this page's copies of changes whose writes have not landed stay. */
async function reload(): Promise<void> {
  const stored = await values<PendingChange>(db());
  const here = new Map(all.map((c) => [c.id, c]));
  all = [...stored.filter((c) => !unsaved.has(c.id)), ...[...unsaved.keys()].flatMap((id) => here.get(id) ?? [])];
  ready = user !== null;
  publish();
}

/**
 * Saves or deletes one change: at once in this page's memory (the screens see it now), then in
 * IndexedDB, after which the other tabs are told.
 * @returns the IndexedDB write, which rejects when IndexedDB is missing or refuses it
 */
function write(change: PendingChange | { id: string; deleted: true }): Promise<void> {
  const deleted = 'deleted' in change;
  all = [...all.filter((c) => c.id !== change.id), ...(deleted ? [] : [change])];
  publish();
  unsaved.set(change.id, (unsaved.get(change.id) ?? 0) + 1);
  return Promise.resolve()
    .then(() => (deleted ? del(change.id, db()) : set(change.id, change, db())))
    .finally(() => {
      const left = (unsaved.get(change.id) ?? 1) - 1;
      if (left === 0) unsaved.delete(change.id);
      else unsaved.set(change.id, left);
      channel?.postMessage('changed');
    });
}

/** Writes `change` without waiting: a write IndexedDB refuses leaves it kept in this page only. */
function writeSoon(change: PendingChange | { id: string; deleted: true }): void {
  write(change).catch(() => undefined);
}

function nextSeq(now: number): number {
  return now * 1000 + (seqCounter++ % 1000);
}

/** The signed-in user whose changes are kept, or null before the outbox starts. */
export function outboxUser(): string | null {
  return user;
}

/** The current lists (a stable object until they change), for useSyncExternalStore. */
export function outboxSnapshot(): OutboxSnapshot {
  return snapshot;
}

/** Calls `listener` whenever the lists change. @returns the unsubscribe function */
export function subscribeOutbox(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Calls `listener` with how many changes a round sent that no screen of this page was waiting on:
 * changes kept offline, or left by a page that closed before their answer.
 * @returns the unsubscribe function
 */
export function onSentEarlier(listener: (count: number) => void): () => void {
  sentEarlierListeners.add(listener);
  return () => sentEarlierListeners.delete(listener);
}

/** Tells the screen waiting on `change`, once. */
function settle(change: PendingChange, result: SendResult): void {
  const settler = settlers.get(change.id);
  settlers.delete(change.id);
  settler?.(result, change);
}

/** Tells every screen waiting on a sealed change that it stays kept, to be sent later. */
function keepAwaited(): void {
  const open = new Set([...openHere.values()].map((o) => o.id));
  for (const change of all) if (settlers.has(change.id) && !open.has(change.id)) settle(change, { kept: true });
  publish();
}

function retrySoon(): void {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void sendWaiting(), RETRY_SECONDS * 1000);
}

/** Runs `fn` while no other tab of the app sends (Web Locks), or at once where they are missing. */
async function alone(fn: () => Promise<void>): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.locks) await navigator.locks.request('stock-keeper-outbox', fn);
  else await fn();
}

/**
 * Sends one change with its key; `leaving`: the page is ending, so nothing is awaited before the
 * request leaves and the request outlives the page.
 * @returns 'sent' (answered and removed), 'refused' (told to its screen, or "Not sent"), 'stop' (kept; the round ends)
 */
async function sendOne(change: PendingChange, leaving: boolean): Promise<'sent' | 'refused' | 'stop'> {
  inFlight.add(change.id);
  let sending = change;
  if (change.sentAt === undefined) {
    // Marked before it leaves: a change that may have been written is never sent again blindly later.
    sending = { ...change, sentAt: new Date().toISOString() };
    const marked = write(sending).catch(() => undefined);
    if (!leaving) await marked;
  } else publish();
  const small = change.body === undefined || JSON.stringify(change.body).length <= KEEPALIVE_MAX_CHARS;
  try {
    const answer = await apiFetch(change.path, { method: 'POST', body: change.body, idempotencyKey: change.id, keepalive: small });
    inFlight.delete(change.id);
    settle(change, { answer });
    await write({ id: change.id, deleted: true }).catch(() => undefined);
    return 'sent';
  } catch (error) {
    inFlight.delete(change.id);
    const outcome = outcomeOf(error);
    if (outcome === 'offline') {
      keepAwaited();
      retrySoon();
      return 'stop';
    }
    if (settlers.has(change.id)) {
      // Its screen shows the server's reason; an error answer wrote nothing, so nothing is kept.
      settle(change, { error });
      await write({ id: change.id, deleted: true }).catch(() => undefined);
      return 'refused';
    }
    if (outcome === 'later') {
      publish();
      retrySoon();
      return 'stop';
    }
    const message = error instanceof Error ? error.message : 'Refused by the server';
    await write({ ...sending, refusal: { message, at: new Date().toISOString() } }).catch(() => undefined);
    return 'refused';
  }
}

/**
 * One round: the signed-in user's kept changes sent in order, each once answered removed. It stops
 * at a change still adding up taps (sent when sealed), at one already on its way, and when the
 * network is gone or the server asks to wait (again when the browser is back online or after
 * RETRY_SECONDS). A change sent so long ago without an answer that its key may be forgotten goes
 * to "Not sent" for the person to decide.
 */
async function sendRound(): Promise<void> {
  const sender = user;
  if (sender === null) return;
  if (!online()) {
    keepAwaited();
    return;
  }
  let earlier = 0;
  await alone(async () => {
    // Another tab may have sent some while this one waited for the lock.
    await reload().catch(() => undefined);
    for (;;) {
      const next = waiting(changesOf(all, sender))[0];
      if (!next || inFlight.has(next.id)) return;
      const now = Date.now();
      const openHereNow = [...openHere.values()].some((o) => o.id === next.id);
      if (openHereNow) return;
      if (isOpen(next, now)) {
        // Left open by another page: sealed once its grace has passed.
        clearTimeout(openTimer);
        openTimer = setTimeout(() => void sendWaiting(), next.openUntil! + OPEN_GRACE_MS + 1 - now);
        return;
      }
      if (mayBeWrittenUnknown(next, now)) {
        await write({ ...next, refusal: { message: UNANSWERED_TOO_LONG, at: new Date(now).toISOString() } }).catch(() => undefined);
        continue;
      }
      const awaited = settlers.has(next.id);
      const outcome = await sendOne(next, false);
      if (outcome === 'stop') return;
      if (outcome === 'sent' && !awaited) earlier++;
    }
  });
  if (earlier > 0) {
    if (client) await invalidateStock(client);
    for (const listener of sentEarlierListeners) listener(earlier);
  }
}

/**
 * Sends the signed-in user's kept changes in order (one round at a time; a call during a round
 * runs another after it). @returns when the rounds are over
 */
export function sendWaiting(): Promise<void> {
  if (round) {
    roundAgain = true;
    return round;
  }
  round = (async () => {
    do {
      roundAgain = false;
      await sendRound();
    } while (roundAgain);
  })().finally(() => {
    round = null;
  });
  return round;
}

/** Ends the adding up of `group`'s open change on this page; `send`: start a round for it. */
function seal(group: string, send = true): void {
  const open = openHere.get(group);
  if (!open) return;
  clearTimeout(open.timer);
  openHere.delete(group);
  const change = all.find((c) => c.id === open.id);
  if (!change) return;
  const sealed: PendingChange = { ...change };
  delete sealed.openUntil;
  writeSoon(sealed);
  if (send) void sendWaiting();
}

/**
 * The page is ending or hidden (a tab closed, a reload, the phone locked): taps still adding up
 * are sealed, and the first change kept goes at once in a request that outlives the page, unless
 * one is already on its way (which does). Whatever does not leave now stays kept, and the next
 * page sends it with the same key.
 */
function leave(): void {
  for (const group of [...openHere.keys()]) seal(group, false);
  if (user === null || inFlight.size > 0 || !online()) return;
  const next = waiting(changesOf(all, user))[0];
  if (!next || isOpen(next, Date.now()) || mayBeWrittenUnknown(next, Date.now())) return;
  void sendOne(next, true).then(() => sendWaiting());
}

function listenForLeaving(): void {
  if (leaveListening || typeof window === 'undefined') return;
  leaveListening = true;
  window.addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave();
  });
}

/**
 * Keeps a write of `userId` and sends it after the changes made before it (this page's taps still
 * adding up are sealed first, so they go before it).
 * @returns what became of it; rejects when IndexedDB refused to keep it (nothing kept: the caller
 *   may send it without the outbox)
 */
export async function sendChange(userId: string, id: string, content: ChangeContent): Promise<SendResult> {
  user ??= userId;
  listenForLeaving();
  for (const group of [...openHere.keys()]) seal(group, false);
  const now = Date.now();
  const result = new Promise<SendResult>((resolve) => settlers.set(id, resolve));
  try {
    await write({ ...content, id, userId, seq: nextSeq(now), madeAt: new Date(now).toISOString() });
  } catch (error) {
    settlers.delete(id);
    all = all.filter((c) => c.id !== id);
    publish();
    throw error;
  }
  void sendWaiting();
  return result;
}

/**
 * Adds a tap of `step` (+1 plus, −1 minus) to this page's change of `group` (a stock row) still
 * adding up, or opens one: kept at once, as the screen shows the tap. `describe` gives the change
 * for the taps' signed sum (null when they cancel out: nothing is kept); the change is sealed and
 * sent when no tap has come for `pauseMs` milliseconds; `onSettled` hears what became of it.
 */
export function addToTally(
  userId: string,
  group: string,
  step: number,
  describe: (count: number) => ChangeContent | null,
  pauseMs: number,
  onSettled: Settler,
): void {
  user ??= userId;
  listenForLeaving();
  const open = openHere.get(group);
  const current = open ? all.find((c) => c.id === open.id) : undefined;
  clearTimeout(open?.timer);
  const count = (current?.tally?.count ?? 0) + step;
  const content = describe(count);
  if (content === null) {
    openHere.delete(group);
    if (open) {
      settlers.delete(open.id);
      writeSoon({ id: open.id, deleted: true });
    }
    return;
  }
  const id = open?.id ?? crypto.randomUUID();
  const now = Date.now();
  openHere.set(group, { id, timer: setTimeout(() => seal(group), pauseMs) });
  settlers.set(id, onSettled);
  const made = current ?? { seq: nextSeq(now), madeAt: new Date(now).toISOString() };
  writeSoon({ ...content, id, userId, seq: made.seq, madeAt: made.madeAt, tally: { group, count }, openUntil: now + pauseMs });
}

/** The signed sum of the taps of `group` kept on this phone and not yet answered, `except` one change. */
export function pendingTally(group: string, except?: string): number {
  return unsentTally(user === null ? [] : all.filter((c) => c.userId === user), group, except);
}

/**
 * What `group`'s taps not yet answered add up to (signed sums: + from the garage, − used): `sent`,
 * the tallies of its sealed changes in order, and `open`, the one this page is adding up (0: none).
 */
export function pendingTallies(group: string): { sent: number[]; open: number } {
  const openId = openHere.get(group)?.id;
  const mine = changesOf(all, user ?? '').filter((c) => c.tally?.group === group && c.refusal === undefined);
  return {
    sent: mine.filter((c) => c.id !== openId).map((c) => c.tally!.count),
    open: mine.find((c) => c.id === openId)?.tally!.count ?? 0,
  };
}

/** Whether this page has taps of `group` adding up, or sent and not yet answered. */
export function isTallyBusy(group: string): boolean {
  if (openHere.has(group)) return true;
  return all.some((c) => c.tally?.group === group && settlers.has(c.id));
}

/** Sends a "Not sent" change again, in its place in the order; one sent over a day ago is sent as new, as the person chose. */
export async function retryChange(id: string): Promise<void> {
  const change = all.find((c) => c.id === id);
  if (!change) return;
  const again: PendingChange = { ...change };
  delete again.refusal;
  if (mayBeWrittenUnknown(change, Date.now())) delete again.sentAt;
  await write(again);
  await sendWaiting();
}

/** Drops a change for good (the person chose to). */
export async function discardChange(id: string): Promise<void> {
  await write({ id, deleted: true });
}

/** Drops every change of the signed-in user (sign-out, after they confirmed). */
export async function discardAll(): Promise<void> {
  const mine = user === null ? [] : changesOf(all, user);
  await Promise.all(mine.map((change) => write({ id: change.id, deleted: true })));
}

/**
 * Starts the outbox for `userId`: reads the kept changes, sends the waiting ones, and sends again
 * whenever the browser comes back online or another tab changes the lists.
 * @returns the function that stops it (on sign-out or another user)
 */
export function startOutbox(queryClient: QueryClient, userId: string): () => void {
  user = userId;
  client = queryClient;
  listenForLeaving();
  const isOnline = () => void sendWaiting();
  const changed = () => void reload().catch(() => undefined);
  window.addEventListener('online', isOnline);
  channel?.addEventListener('message', changed);
  void reload()
    .catch(() => undefined)
    .then(sendWaiting);
  return () => {
    window.removeEventListener('online', isOnline);
    channel?.removeEventListener('message', changed);
    clearTimeout(retryTimer);
    clearTimeout(openTimer);
    user = null;
    client = undefined;
    ready = false;
    publish();
  };
}
