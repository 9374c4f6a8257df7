/**
 * The outbox: stock changes kept on the phone in IndexedDB (idb-keyval) until they are sent,
 * in the order they were made, each with its own Idempotency-Key (docs/product.md "Offline use",
 * docs/decisions/047-idempotency-keys.md). They survive a reload and a closed tab; every tab of
 * the app sees the same changes (a BroadcastChannel says when they change) and only one sends at
 * a time (a Web Lock). A change the server refuses stays, "Not sent", with the server's reason,
 * until the person retries or discards it: nothing is dropped silently.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createStore, del, set, values, type UseStore } from 'idb-keyval';
import { apiFetch } from '../api-fetch';
import { invalidateStock } from '../stock-cache';
import { changesOf, notSent, outcomeOf, waiting, type PendingChange } from './pending-change';

/** The two lists the screens show, for the signed-in user. */
export interface OutboxSnapshot {
  waiting: PendingChange[];
  notSent: PendingChange[];
  /** False until the kept changes have been read from IndexedDB once after the outbox started. */
  ready: boolean;
}

/** Seconds before sending again after the server asked to wait or the network failed while `onLine` said otherwise. */
const RETRY_SECONDS = 5;

const EMPTY: OutboxSnapshot = { waiting: [], notSent: [], ready: false };

let store: UseStore | undefined;
let all: PendingChange[] = [];
let user: string | null = null;
let client: QueryClient | undefined;
let snapshot: OutboxSnapshot = EMPTY;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let seqCounter = 0;
let ready = false;
/** Called when the outbox next starts: the writes waiting for it (`outboxStarted`). */
const startWaiters = new Set<() => void>();
const listeners = new Set<() => void>();
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('stock-keeper-outbox');

/** The IndexedDB store, opened on first use (never at import: tests and old browsers have none). */
function db(): UseStore {
  return (store ??= createStore('stock-keeper-outbox', 'changes'));
}

function publish(): void {
  const mine = user === null ? [] : changesOf(all, user);
  snapshot = { waiting: waiting(mine), notSent: notSent(mine), ready };
  for (const listener of listeners) listener();
}

/** Reads every kept change from IndexedDB into memory. */
async function reload(): Promise<void> {
  all = await values<PendingChange>(db());
  ready = user !== null;
  publish();
}

/** Saves or deletes one change, then tells this tab's screens and the other tabs. */
async function write(change: PendingChange | { id: string; deleted: true }): Promise<void> {
  if ('deleted' in change) {
    await del(change.id, db());
    all = all.filter((c) => c.id !== change.id);
  } else {
    await set(change.id, change, db());
    all = [...all.filter((c) => c.id !== change.id), change];
  }
  publish();
  channel?.postMessage('changed');
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
 * Resolves once the outbox has started for a signed-in user (at once if it has), or after
 * `timeoutMs` if it has not by then: nobody is signed in, or the app root could not load it.
 */
export function outboxStarted(timeoutMs: number): Promise<void> {
  if (user !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      startWaiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    startWaiters.add(done);
  });
}

/**
 * Keeps a change made by the signed-in user, to be sent with `id` as its key, after the others.
 * @throws Error when the outbox has not started (no signed-in user)
 */
export async function keepChange(id: string, change: Omit<PendingChange, 'id' | 'userId' | 'seq' | 'madeAt'>): Promise<void> {
  if (user === null) throw new Error('the outbox keeps changes of a signed-in user only');
  const now = Date.now();
  await write({ ...change, id, userId: user, seq: now * 1000 + (seqCounter++ % 1000), madeAt: new Date(now).toISOString() });
  void sendWaiting();
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
 * Sends the signed-in user's waiting changes in order, each with its key. A sent change leaves
 * the outbox; a refused one gets the server's reason and the next is sent; the network gone or
 * the server asking to wait stops the round, which starts again when the browser is back online
 * or after RETRY_SECONDS. The stock views are refreshed after a round that sent anything.
 */
export async function sendWaiting(): Promise<void> {
  if (user === null || (typeof navigator !== 'undefined' && !navigator.onLine)) return;
  const sender = user;
  let sent = 0;
  await alone(async () => {
    // Another tab may have sent some while this one waited for the lock.
    await reload();
    for (const change of waiting(changesOf(all, sender))) {
      try {
        await apiFetch(change.path, { method: 'POST', body: change.body, idempotencyKey: change.id });
        await write({ id: change.id, deleted: true });
        sent++;
      } catch (error) {
        const outcome = outcomeOf(error);
        if (outcome !== 'refused') {
          retrySoon();
          return;
        }
        const message = error instanceof Error ? error.message : 'Refused by the server';
        await write({ ...change, refusal: { message, at: new Date().toISOString() } });
      }
    }
  });
  if (sent > 0 && client) await invalidateStock(client);
}

/** Sends a "Not sent" change again, in its place in the order. */
export async function retryChange(id: string): Promise<void> {
  const change = all.find((c) => c.id === id);
  if (!change) return;
  await write({ ...change, refusal: undefined });
  await sendWaiting();
}

/** Drops a change for good (the person chose to). */
export async function discardChange(id: string): Promise<void> {
  await write({ id, deleted: true });
}

/** Drops every change of the signed-in user (sign-out, after they confirmed). */
export async function discardAll(): Promise<void> {
  const mine = user === null ? [] : changesOf(all, user);
  for (const change of mine) await del(change.id, db());
  all = all.filter((c) => !mine.includes(c));
  publish();
  channel?.postMessage('changed');
}

/**
 * Starts the outbox for `userId`: reads the kept changes, sends the waiting ones, and sends again
 * whenever the browser comes back online or another tab changes the lists.
 * @returns the function that stops it (on sign-out or another user)
 */
export function startOutbox(queryClient: QueryClient, userId: string): () => void {
  user = userId;
  client = queryClient;
  startWaiters.forEach((waiter) => waiter());
  startWaiters.clear();
  const online = () => void sendWaiting();
  const changed = () => void reload();
  window.addEventListener('online', online);
  channel?.addEventListener('message', changed);
  void reload().then(sendWaiting);
  return () => {
    window.removeEventListener('online', online);
    channel?.removeEventListener('message', changed);
    clearTimeout(retryTimer);
    user = null;
    client = undefined;
    ready = false;
    publish();
  };
}
