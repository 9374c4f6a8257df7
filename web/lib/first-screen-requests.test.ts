/** The app takes the answers index.html's first-screens script requested, once each (decision 016). */
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module as the app starts it, after a script left `started` (by path) in the window. */
async function startApp(started?: Record<string, Promise<Response | null>>) {
  vi.resetModules();
  vi.stubGlobal('window', { firstScreenRequests: started, location: new URL('https://app.example/') });
  return import('./first-screen-requests');
}

const answer = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body)));

describe('first screen requests', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('hands each answer over once; the next request for the path goes to the network', async () => {
    const { takeFirstScreenRequest } = await startApp({ '/api/dashboard': answer({ n: 1 }) });
    expect(await (await takeFirstScreenRequest('/api/dashboard'))!.json()).toEqual({ n: 1 });
    expect(takeFirstScreenRequest('/api/dashboard')).toBeUndefined();
    expect(takeFirstScreenRequest('/api/me')).toBeUndefined();
  });

  it('reads what the script left only when the app starts', async () => {
    const { takeFirstScreenRequest } = await startApp();
    // A script that ran later would hand over answers older than the app's own.
    (globalThis.window as Window).firstScreenRequests = { '/api/dashboard': answer({ n: 1 }) };
    expect(takeFirstScreenRequest('/api/dashboard')).toBeUndefined();
  });

  it('forgets the answers not taken once the app has moved on', async () => {
    const { dropFirstScreenRequests, takeFirstScreenRequest } = await startApp({ '/api/dashboard': answer({ n: 1 }) });
    dropFirstScreenRequests();
    expect(takeFirstScreenRequest('/api/dashboard')).toBeUndefined();
  });

  it('serves a same-origin GET of a client that fetches itself, and sends the requests the script did not', async () => {
    const network = vi.fn(async () => new Response('"network"'));
    const { fetchWithFirstScreenRequests } = await startApp({
      '/api/auth/get-session': answer('started'),
      '/api/me': Promise.resolve(null),
    });
    vi.stubGlobal('fetch', network);
    expect(await (await fetchWithFirstScreenRequests(new URL('https://app.example/api/auth/get-session'), { method: 'GET' })).json()).toBe('started');
    expect(network).not.toHaveBeenCalled();
    // Null: the script did not send it (nobody was signed in), so it goes to the network.
    expect(await (await fetchWithFirstScreenRequests('https://app.example/api/me')).json()).toBe('network');
    expect(await (await fetchWithFirstScreenRequests('https://app.example/api/auth/get-session')).json()).toBe('network');
    expect(network).toHaveBeenCalledTimes(2);
  });

  it('never serves a POST or another origin from them', async () => {
    const network = vi.fn(async () => new Response('"network"'));
    const { fetchWithFirstScreenRequests, takeFirstScreenRequest } = await startApp({ '/api/auth/get-session': answer('started') });
    vi.stubGlobal('fetch', network);
    await fetchWithFirstScreenRequests('https://app.example/api/auth/get-session', { method: 'POST' });
    await fetchWithFirstScreenRequests('https://other.example/api/auth/get-session');
    expect(network).toHaveBeenCalledTimes(2);
    expect(takeFirstScreenRequest('/api/auth/get-session')).toBeDefined();
  });
});
