/**
 * The localStorage entry that says data may be kept on the device for offline reading
 * (offline-cache.ts): read on the sign-in screen without loading the storage code, so that the
 * data of a session that ended elsewhere is deleted without every visitor of /login downloading
 * that code. A module of its own: it is part of the app's first download.
 */

/** The entry's key; its value is '1'. */
export const OFFLINE_CACHE_MARKER = 'offline-reads-kept';

/** True when data may be kept on the device (the marker is set); false without localStorage. */
export function offlineCacheMayExist(): boolean {
  try {
    return localStorage.getItem(OFFLINE_CACHE_MARKER) !== null;
  } catch {
    return false;
  }
}

/** Sets (`kept`) or removes the marker; without localStorage (a private window's refusal, tests), nothing. */
export function setOfflineCacheMarker(kept: boolean): void {
  try {
    if (kept) localStorage.setItem(OFFLINE_CACHE_MARKER, '1');
    else localStorage.removeItem(OFFLINE_CACHE_MARKER);
  } catch {
    // Without the marker, a signed-out visit does not delete what an ended session kept; the next
    // sign-in still does when it is another user's (another buster).
  }
}
