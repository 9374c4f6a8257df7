/** The wait before a page's work for later: after the load event and the first screen's time, or at once offline. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_MS, waitForFirstScreen, type LoadingPage, type OnlineSignal } from './first-screen-settled';

/** A page that loads when `load()` is called, and a network that goes offline when `goOffline()` is. */
function fakes(startOnline = true, startLoaded = false) {
  let loaded = startLoaded;
  const loadListeners: (() => void)[] = [];
  let online = startOnline;
  const onlineListeners = new Set<(online: boolean) => void>();
  const page: LoadingPage = { loaded: () => loaded, onLoad: (l) => loadListeners.push(l) };
  const signal: OnlineSignal = {
    isOnline: () => online,
    subscribe: (l) => {
      onlineListeners.add(l);
      return () => onlineListeners.delete(l);
    },
  };
  return {
    page,
    signal,
    listening: () => onlineListeners.size,
    load: () => {
      loaded = true;
      loadListeners.forEach((l) => l());
    },
    goOffline: () => {
      online = false;
      onlineListeners.forEach((l) => l(false));
    },
  };
}

/** Whether `promise` has resolved by now (after pending microtasks). */
async function isDone(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('waitForFirstScreen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for the load event, then the first screen’s time', async () => {
    const f = fakes();
    const wait = waitForFirstScreen(f.page, f.signal);
    await vi.advanceTimersByTimeAsync(10 * FIRST_SCREEN_MS);
    expect(await isDone(wait)).toBe(false);
    f.load();
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_MS - 1);
    expect(await isDone(wait)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await isDone(wait)).toBe(true);
    expect(f.listening()).toBe(0);
  });

  it('counts the time from now on a page already loaded', async () => {
    const f = fakes(true, true);
    const wait = waitForFirstScreen(f.page, f.signal);
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_MS - 1);
    expect(await isDone(wait)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await isDone(wait)).toBe(true);
  });

  it('resolves at once offline, and as soon as the network goes', async () => {
    const offline = fakes(false);
    expect(await isDone(waitForFirstScreen(offline.page, offline.signal))).toBe(true);
    expect(offline.listening()).toBe(0);

    const f = fakes();
    const wait = waitForFirstScreen(f.page, f.signal);
    expect(await isDone(wait)).toBe(false);
    f.goOffline();
    expect(await isDone(wait)).toBe(true);
    expect(f.listening()).toBe(0);
  });
});
