/** The signed-in user's kept stock changes, for the screens (web/lib/outbox/outbox.ts). */
import { useSyncExternalStore } from 'react';
import { outboxSnapshot, subscribeOutbox, type OutboxSnapshot } from './outbox';

/** The changes waiting to be sent and those the server refused, re-rendering when they change. */
export function useOutbox(): OutboxSnapshot {
  return useSyncExternalStore(subscribeOutbox, outboxSnapshot, outboxSnapshot);
}
