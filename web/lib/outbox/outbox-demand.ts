/**
 * Whether a screen that writes stock has been loaded on this page. The outbox starts once the
 * first screen has settled (first-screen-settled.ts), so that the dashboard's first load does not
 * wait for its code; a screen that can keep a change on the phone needs it at once, and says so
 * here when its stock-write code loads (web/lib/stock-write.ts). The app root starts the outbox
 * for the signed-in user as soon as either holds (App.tsx). Kept apart from the outbox so that
 * the root reads it without loading the outbox's code.
 */
import { useSyncExternalStore } from 'react';

let wanted = false;
const listeners = new Set<() => void>();

/** Asks for the outbox now; the first call only matters. */
export function wantOutbox(): void {
  if (wanted) return;
  wanted = true;
  listeners.forEach((listener) => listener());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** True once {@link wantOutbox} was called on this page; re-renders the component then. */
export function useOutboxWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
}
