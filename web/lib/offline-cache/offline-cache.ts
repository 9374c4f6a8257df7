/**
 * Keeps the signed-in user's offline-readable queries on the device, in IndexedDB, so that a
 * cleaner in a basement without signal still sees the units, garages, counts' data and pick lists
 * read earlier (docs/decisions/048-offline-reads.md). TanStack Query's persister
 * (`@tanstack/react-query-persist-client` with `@tanstack/query-async-storage-persister`) writes
 * the dehydrated cache, at most once a second, as one JSON string under one key of a database of
 * its own (`idb-keyval`); it is read back once per signed-in user and page.
 *
 * Loaded on demand, once a user is signed in (OfflineCache.tsx) or signs out (the sign-out path):
 * the sign-in screen does not download it.
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import {
  persistQueryClientRestore,
  persistQueryClientSave,
  persistQueryClientSubscribe,
  type PersistedQueryClientSaveOptions,
} from '@tanstack/react-query-persist-client';
import type { QueryClient } from '@tanstack/react-query';
import { setOfflineCacheMarker } from './offline-cache-marker';
import { isPersistedQueryKey, OFFLINE_CACHE_MAX_AGE_MS, offlineCacheBuster, PERSISTED_QUERY_PREFIXES, restoredForAnotherCompany } from './offline-cache-rules';

/** IndexedDB database and object store of the kept cache, apart from any other data of the app. */
const DB_NAME = 'inventory-offline-reads';
const STORE_NAME = 'query-cache';
/** The one key the dehydrated cache is written under. */
const CACHE_KEY = 'query-cache';
/** Most often the cache is written, in milliseconds between two writes. */
const WRITE_INTERVAL_MS = 1000;

/** Where the kept cache is stored: string values by key, as the async storage persister reads them. */
export interface OfflineCacheStorage {
  getItem: (key: string) => Promise<string | null>;
  setItem: (key: string, value: string) => Promise<void>;
  removeItem: (key: string) => Promise<void>;
}

let store: UseStore | undefined;
/** Opened on first use, so that importing the module touches no IndexedDB. */
const idbStore = () => (store ??= createStore(DB_NAME, STORE_NAME));

/** The app's storage: the IndexedDB database of the kept cache (idb-keyval). */
const indexedDbStorage: OfflineCacheStorage = {
  getItem: async (key) => (await get<string>(key, idbStore())) ?? null,
  setItem: (key, value) => set(key, value, idbStore()),
  removeItem: (key) => del(key, idbStore()),
};

/** The keeping under way on this page, if any: one user at a time. */
let running: OfflineCacheHandle | undefined;

/**
 * What names the running build: the URL of index.html's entry module. Its name carries a hash of
 * its content, which names every screen's chunk by its own hash, so any change to the app's code
 * (a data contract included) gives a new name. In development, the unhashed entry.
 */
function appBuild(): string {
  return document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? 'unknown';
}

/** A keeping under way. */
export interface OfflineCacheHandle {
  /** Stops keeping; what is kept stays on the device. */
  stop: () => void;
  /** Settles once the kept data is restored (or dropped) and changes are being kept. */
  ready: Promise<void>;
}

/** Another storage, build or page start than the app's, for tests. */
export interface OfflineCacheOptions {
  storage?: OfflineCacheStorage;
  build?: string;
  /** When this page started, in ms since the epoch: data read before it was restored. */
  pageStartedAt?: number;
}

/**
 * The query client as the persist library types it. The persisters are published at 5.104, with
 * their own copy of TanStack Query's core, while the app runs 5.108: the two copies' classes are
 * the same API but distinct types (private fields). The library only calls the client's public
 * methods, so the app's client is passed as is; once the persisters follow the app's version,
 * npm shares one copy and this cast changes nothing.
 */
type PersistedClientOf = PersistedQueryClientSaveOptions['queryClient'];
type KeptQuery = ReturnType<ReturnType<PersistedClientOf['getQueryCache']>['getAll']>[number];

/** A query whose data is kept: a success (as TanStack's default rule) of one of the kept keys (offline-cache-rules.ts). */
function shouldKeep(query: KeptQuery): boolean {
  return query.state.status === 'success' && isPersistedQueryKey(query.queryKey);
}

type MeData = { tenant?: { id: string } | null } | undefined;

/**
 * Resets the kept company data when the server's answer for ['me'] names another company than
 * the restored one. @returns the function that stops watching.
 */
function watchCompany(queryClient: QueryClient): () => void {
  const restored = queryClient.getQueryData<MeData>(['me'])?.tenant?.id;
  if (restored === undefined) return () => undefined;
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.query.queryHash !== '["me"]') return;
    unsubscribe();
    const fresh = (event.query.state.data as MeData)?.tenant?.id;
    if (!restoredForAnotherCompany(restored, fresh)) return;
    void queryClient.resetQueries({ predicate: (query) => isPersistedQueryKey(query.queryKey) && query.queryHash !== '["me"]' });
  });
  return unsubscribe;
}

/**
 * Keeps the kept queries in memory as long as on the device (7 days), so that the device keeps
 * what was read, not what TanStack's 5 minutes of garbage collection left in memory: for the
 * queries made from now on (query defaults), and for those already made.
 */
function keepInMemory(queryClient: QueryClient): void {
  for (const prefix of PERSISTED_QUERY_PREFIXES) queryClient.setQueryDefaults(prefix, { gcTime: OFFLINE_CACHE_MAX_AGE_MS });
  for (const query of queryClient.getQueryCache().findAll({ predicate: (q) => isPersistedQueryKey(q.queryKey) })) {
    query.setOptions({ ...query.options, gcTime: OFFLINE_CACHE_MAX_AGE_MS });
  }
}

/**
 * Marks stale the restored queries: data read on an earlier page. Restored, a query keeps the
 * time it was read, so within its `staleTime` (30 s for the user and company) it would be taken
 * as fresh and not read again, although the page was reloaded, perhaps because something changed
 * elsewhere (the company set up in another tab). Marked stale, each is read again when a screen
 * next uses it (online; offline it is shown as it is). Nothing is fetched here.
 */
function markRestoredStale(queryClient: QueryClient, pageStartedAt: number): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (query) => isPersistedQueryKey(query.queryKey) && query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt < pageStartedAt,
    refetchType: 'none',
  });
}

/**
 * Restores the data `userId` kept on this device (unless it is older than 7 days, of another
 * build, or another user's: then it is deleted) into `queryClient`, then keeps the kept queries'
 * data as it changes, at most once a second. Starting again (another user) stops the previous
 * keeping first.
 */
export function startOfflineCache(
  queryClient: QueryClient,
  userId: string,
  { storage = indexedDbStorage, build = appBuild(), pageStartedAt = performance.timeOrigin }: OfflineCacheOptions = {},
): OfflineCacheHandle {
  running?.stop();
  keepInMemory(queryClient);
  let stopped = false;
  const guarded: OfflineCacheStorage = {
    ...storage,
    // A write the throttle had scheduled before a stop must not bring deleted data back.
    setItem: (key, value) => (stopped ? Promise.resolve() : storage.setItem(key, value)),
  };
  const persister = createAsyncStoragePersister({ storage: guarded, key: CACHE_KEY, throttleTime: WRITE_INTERVAL_MS });
  const options: PersistedQueryClientSaveOptions = {
    queryClient: queryClient as unknown as PersistedClientOf,
    persister,
    buster: offlineCacheBuster(build, userId),
    // Paused stock changes are not kept here: the offline write queue keeps its own.
    dehydrateOptions: { shouldDehydrateQuery: shouldKeep, shouldDehydrateMutation: () => false },
  };
  let stopWatching: () => void = () => undefined;
  let unsubscribe: () => void = () => undefined;
  const ready = persistQueryClientRestore({ ...options, maxAge: OFFLINE_CACHE_MAX_AGE_MS })
    // Unreadable kept data has been deleted by the library; the app goes on with the network.
    .catch((error: unknown) => console.error(error))
    .then(async () => {
      if (stopped) return;
      await markRestoredStale(queryClient, pageStartedAt);
      setOfflineCacheMarker(true);
      stopWatching = watchCompany(queryClient);
      unsubscribe = persistQueryClientSubscribe(options);
      // What the screens read while the kept data was being restored.
      await persistQueryClientSave(options);
    })
    .catch((error: unknown) => console.error(error));
  const handle: OfflineCacheHandle = {
    stop() {
      stopped = true;
      unsubscribe();
      stopWatching();
      if (running === handle) running = undefined;
    },
    ready,
  };
  running = handle;
  return handle;
}

/**
 * Stops keeping and deletes the kept data from the device: at sign-out, and when the server says
 * nobody is signed in any more (OfflineCache.tsx). Never rejects.
 * @param storage another storage than the app's, for tests.
 */
export async function clearOfflineCache(storage: OfflineCacheStorage = indexedDbStorage): Promise<void> {
  running?.stop();
  setOfflineCacheMarker(false);
  try {
    await storage.removeItem(CACHE_KEY);
  } catch (error) {
    console.error(error);
  }
}
