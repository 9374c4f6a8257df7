/**
 * Keeping the offline-readable queries through TanStack's persister, on a storage in memory in
 * place of IndexedDB: what is written, what is restored, and for whom.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { clearOfflineCache, startOfflineCache, type OfflineCacheHandle, type OfflineCacheStorage } from './offline-cache';

/** A storage in memory, with the map it writes to. */
function memoryStorage(): OfflineCacheStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: async (key) => map.get(key) ?? null,
    setItem: async (key, value) => void map.set(key, value),
    removeItem: async (key) => void map.delete(key),
  };
}

interface Stored {
  buster: string;
  timestamp: number;
  clientState: { queries: { queryKey: unknown[] }[]; mutations: unknown[] };
}

function stored(storage: { map: Map<string, string> }): Stored | undefined {
  const [value] = storage.map.values();
  return value === undefined ? undefined : (JSON.parse(value) as Stored);
}

const UNITS = [{ id: 'unit-1', name: 'Beach House' }];
const BUILD = '/assets/index-a.js';

let handles: OfflineCacheHandle[] = [];

/** Starts keeping for `userId` on a new client and waits until restored. */
async function start(storage: OfflineCacheStorage, userId: string, build = BUILD): Promise<QueryClient> {
  const client = new QueryClient();
  const handle = startOfflineCache(client, userId, { storage, build });
  handles.push(handle);
  await handle.ready;
  return client;
}

/** Keeps, as `userId`, the units list and what must never be kept, and waits until written. */
async function keepUnits(storage: ReturnType<typeof memoryStorage>, userId: string): Promise<QueryClient> {
  const client = await start(storage, userId);
  client.setQueryData(['me'], { user: { id: userId }, tenant: { id: 'tenant-1' } });
  client.setQueryData(['units'], UNITS);
  client.setQueryData(['reports', 'status'], { units: [] });
  client.setQueryData(['units', 'unit-1', 'calendar'], { links: ['https://example.com/private.ics'] });
  await vi.waitFor(() => expect(stored(storage)?.clientState.queries.length).toBe(2), { timeout: 3000, interval: 50 });
  return client;
}

afterEach(() => {
  for (const handle of handles) handle.stop();
  handles = [];
});

describe('offline cache', () => {
  it('writes only the kept queries, no mutations, and restores them for the same user with their read time', async () => {
    const storage = memoryStorage();
    const first = await keepUnits(storage, 'user-1');
    const kept = stored(storage)!;
    expect(kept.clientState.queries.map((q) => q.queryKey)).toEqual([['me'], ['units']]);
    expect(kept.clientState.mutations).toEqual([]);
    expect(JSON.stringify(kept)).not.toContain('private.ics');

    const again = await start(storage, 'user-1');
    expect(again.getQueryData(['units'])).toEqual(UNITS);
    expect(again.getQueryState(['units'])?.dataUpdatedAt).toBe(first.getQueryState(['units'])?.dataUpdatedAt);
    expect(again.getQueryData(['reports', 'status'])).toBeUndefined();
  });

  it('marks the restored data stale, so that a screen reads it again after a reload (online)', async () => {
    const storage = memoryStorage();
    await keepUnits(storage, 'user-1');
    // Kept strictly before the page started, and read strictly after: a millisecond apart either way.
    const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
    await tick();
    const pageStartedAt = Date.now();
    await tick();
    const client = new QueryClient();
    client.setQueryData(['garages'], []);
    const handle = startOfflineCache(client, 'user-1', { storage, build: BUILD, pageStartedAt });
    handles.push(handle);
    await handle.ready;
    expect(client.getQueryState(['me'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['units'])?.isInvalidated).toBe(true);
    // What this page read itself is left as it is.
    expect(client.getQueryState(['garages'])?.isInvalidated).toBe(false);
  });

  it("never restores another user's data, and deletes it", async () => {
    const storage = memoryStorage();
    await keepUnits(storage, 'user-1');
    const other = await start(storage, 'user-2');
    expect(other.getQueryData(['units'])).toBeUndefined();
    expect(other.getQueryData(['me'])).toBeUndefined();
    // What is on the device now is the new user's (nothing yet).
    expect(stored(storage)?.buster).toContain('user-2');
    expect(stored(storage)?.clientState.queries).toEqual([]);
  });

  it('drops data of another build and data older than 7 days', async () => {
    const storage = memoryStorage();
    await keepUnits(storage, 'user-1');
    expect((await start(storage, 'user-1', '/assets/index-b.js')).getQueryData(['units'])).toBeUndefined();

    const old = memoryStorage();
    await keepUnits(old, 'user-1');
    handles.forEach((h) => h.stop());
    const [key] = old.map.keys();
    old.map.set(key!, JSON.stringify({ ...stored(old)!, timestamp: Date.now() - 8 * 24 * 3600 * 1000 }));
    expect((await start(old, 'user-1')).getQueryData(['units'])).toBeUndefined();
  });

  it('resets the restored company data when the server names another company', async () => {
    const storage = memoryStorage();
    await keepUnits(storage, 'user-1');
    const client = await start(storage, 'user-1');
    expect(client.getQueryData(['units'])).toEqual(UNITS);
    client.setQueryData(['me'], { user: { id: 'user-1' }, tenant: { id: 'tenant-2' } });
    await vi.waitFor(() => expect(client.getQueryData(['units'])).toBeUndefined());
  });

  it('keeps the kept queries in memory for 7 days, made before or after the start, the others as usual', () => {
    const client = new QueryClient();
    client.setQueryData(['units'], UNITS);
    handles.push(startOfflineCache(client, 'user-1', { storage: memoryStorage(), build: BUILD }));
    client.setQueryData(['garages'], []);
    client.setQueryData(['reports', 'status'], { units: [] });
    // Read from the options: outside a browser TanStack keeps every query for ever (gcTime Infinity).
    const gcTime = (queryKey: string[]) => client.getQueryCache().find({ queryKey })?.options.gcTime;
    expect(gcTime(['units'])).toBe(7 * 24 * 3600 * 1000);
    expect(gcTime(['garages'])).toBe(7 * 24 * 3600 * 1000);
    expect(gcTime(['reports', 'status'])).toBeUndefined();
  });

  it('deletes the kept data at sign-out and writes nothing more', async () => {
    const storage = memoryStorage();
    const client = await keepUnits(storage, 'user-1');
    await clearOfflineCache(storage);
    expect(storage.map.size).toBe(0);
    client.setQueryData(['units'], [...UNITS, { id: 'unit-2', name: 'Lake Cabin' }]);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(storage.map.size).toBe(0);
  });
});
