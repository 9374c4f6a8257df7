/**
 * Whether the browser is online, as TanStack Query's `onlineManager` knows it (the window's
 * `online` and `offline` events): the same signal that pauses the queries while offline, so a
 * screen that says "offline" and the data cache never disagree.
 */
import { useSyncExternalStore } from 'react';
import { onlineManager } from '@tanstack/react-query';

const subscribe = (onChange: () => void) => onlineManager.subscribe(onChange);
const isOnline = () => onlineManager.isOnline();
// Rendered outside a browser (tests render to static markup): online, the app's usual state.
const isOnlineOnServer = () => true;

/** True while the browser is online; re-renders the component when that changes. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, isOnlineOnServer);
}

/**
 * Tells `onlineManager` the browser is offline when the page starts without a network. It
 * assumes online until the first `offline` event, so a page opened offline would otherwise try
 * every query first. `navigator.onLine === false` is reliable (true is not: a network interface
 * without internet also reads true), so only that is taken.
 */
export function seedOnlineState(): void {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);
}
