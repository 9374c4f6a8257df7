/**
 * The first screen's GET requests that index.html's first-screens script (built by
 * scripts/web-first-screens.ts) sends before the app's code has arrived, so that on a phone the
 * data downloads alongside the code instead of after it (decision 016). The script leaves the
 * pending answers in `window.firstScreenRequests`, by path ('/api/dashboard'); the app takes
 * each one in place of sending that request itself.
 */

declare global {
  interface Window {
    /**
     * Written by index.html's first-screens script: by path, the answer it requested, or null
     * for a request it decided not to send (nobody was signed in).
     */
    firstScreenRequests?: Record<string, Promise<Response | null>>;
  }
}

// Read once, when the app starts: a script that ran after the app had sent its own requests
// would only hand over answers older than the ones the app already has.
const pending = new Map(Object.entries((typeof window === 'undefined' ? undefined : window.firstScreenRequests) ?? {}));

/**
 * The answer the first-screens script requested for `path` (path and query, e.g.
 * '/api/dashboard'), at most once: the next request for that path goes to the network.
 * @returns undefined when there is none, else a promise of the answer (it rejects as `fetch`
 * does when no answer arrives), or of null when the script did not send the request after all.
 */
export function takeFirstScreenRequest(path: string): Promise<Response | null> | undefined {
  const response = pending.get(path);
  pending.delete(path);
  return response;
}

/**
 * Forgets the answers not taken. They were requested for the screen the page opened on, with the
 * session of that moment: once the app has moved to another path (to /login for a signed-out
 * browser, to /onboarding, or a link pressed while loading), a later request must not get them.
 */
export function dropFirstScreenRequests(): void {
  pending.clear();
}

/**
 * `fetch`, except that a same-origin GET the first-screens script already sent gets that answer
 * (for clients that do their own requests, e.g. better-auth's session read).
 */
export function fetchWithFirstScreenRequests(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  if (pending.size > 0 && method.toUpperCase() === 'GET') {
    const url = new URL(input instanceof Request ? input.url : input, window.location.href);
    const started = url.origin === window.location.origin ? takeFirstScreenRequest(url.pathname + url.search) : undefined;
    if (started) return started.then((response) => response ?? fetch(input, init));
  }
  return fetch(input, init);
}
