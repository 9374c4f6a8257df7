/**
 * When the work a page does for later may start: the offline cache, the outbox and its status
 * line, the reads that prepare the offline screens and the service worker's registration
 * (decisions 016, 046, 048). On a phone's first load their code and requests would otherwise share
 * the network and the processor with the first screen's own, and delay it. They start once the
 * page has loaded and then some time has passed for the first screen to show its data, or at once
 * when the browser is offline (or goes offline meanwhile): then the kept data and changes are what
 * the screen needs, and the network has nothing to share.
 */
import { useEffect, useState } from 'react';
import { onlineManager } from '@tanstack/react-query';

/** Time after the page's load event left to the first screen, in milliseconds. */
export const FIRST_SCREEN_MS = 1500;

/** What the wait reads of the page: whether it has loaded, and its load event. */
export interface LoadingPage {
  loaded: () => boolean;
  onLoad: (listener: () => void) => void;
}

/** What the wait reads of the network: TanStack Query's `onlineManager`, the app's online signal. */
export interface OnlineSignal {
  isOnline: () => boolean;
  subscribe: (listener: (online: boolean) => void) => () => void;
}

/**
 * Resolves FIRST_SCREEN_MS after `page` has loaded, or as soon as `online` says offline.
 * Timers are the global ones (`setTimeout`).
 */
export function waitForFirstScreen(page: LoadingPage, online: OnlineSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    let unsubscribe = () => {};
    const settle = () => {
      unsubscribe();
      resolve();
    };
    if (!online.isOnline()) return settle();
    unsubscribe = online.subscribe((isOnline) => {
      if (!isOnline) settle();
    });
    const afterLoad = () => setTimeout(settle, FIRST_SCREEN_MS);
    if (page.loaded()) afterLoad();
    else page.onLoad(afterLoad);
  });
}

let settled = false;
let whenSettled: Promise<void> | undefined;

/** This page's wait ({@link waitForFirstScreen}), begun on the first call; the same promise after. */
export function firstScreenSettled(): Promise<void> {
  whenSettled ??= waitForFirstScreen(
    { loaded: () => document.readyState === 'complete', onLoad: (listener) => window.addEventListener('load', listener, { once: true }) },
    onlineManager,
  ).then(() => {
    settled = true;
  });
  return whenSettled;
}

/** True once {@link firstScreenSettled} has resolved; re-renders the component then. */
export function useFirstScreenSettled(): boolean {
  const [done, setDone] = useState(settled);
  useEffect(() => {
    if (done) return;
    let active = true;
    void firstScreenSettled().then(() => active && setDone(true));
    return () => {
      active = false;
    };
  }, [done]);
  return done;
}
