/**
 * The rules of the data kept on the device for reading offline (docs/decisions/048-offline-reads.md):
 * which queries are kept, for how long, and whose they are. Plain values and functions, without
 * the storage libraries, so that they can be tested alone; offline-cache.ts does the keeping.
 */
import type { QueryKey } from '@tanstack/react-query';

/** How long kept data may be shown: 7 days, in milliseconds. Older data is dropped, not shown. */
export const OFFLINE_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The key prefixes of the kept queries: what a cleaner reads in a property or a storage room, and
 * what those screens need to render.
 * - ['units'] the units list, ['units', id] a unit (Unit detail, a unit's Count), ['units', id,
 *   'stays'] its upcoming stays;
 * - ['garages'] the garages with their stock (Garages, a garage's Count, the garage stock on a
 *   unit's page);
 * - ['items'] the items (the Count screen lists what a place does not hold yet);
 * - ['forecast', 'pick-list'] a garage's pick lists, ['forecast', 'order'] its order panel,
 *   ['forecast', 'unit'] a unit's forecast line;
 * - ['me'] the user, company and role (permissions, the count draft's key), ['subscription',
 *   'status'] the plan (the expired-trial gate waits for it).
 * Reports, billing's plans and usage, the team, the import, the assistant and the dashboard are
 * never kept.
 */
export const PERSISTED_QUERY_PREFIXES: readonly QueryKey[] = [
  ['me'],
  ['subscription', 'status'],
  ['units'],
  ['garages'],
  ['items'],
  ['forecast', 'pick-list'],
  ['forecast', 'order'],
  ['forecast', 'unit'],
];

/**
 * Whether the query of `key` is kept on the device. A unit's calendar links (['units', id,
 * 'calendar']) are not: their addresses are the channels' private links, and no offline screen
 * shows them.
 */
export function isPersistedQueryKey(key: QueryKey): boolean {
  const [root, second, third] = key;
  switch (root) {
    case 'me':
    case 'garages':
    case 'items':
      return key.length === 1;
    case 'subscription':
      return key.length === 2 && second === 'status';
    case 'units':
      return key.length <= 2 || (key.length === 3 && third === 'stays');
    case 'forecast':
      return second === 'pick-list' || second === 'order' || second === 'unit';
    default:
      return false;
  }
}

/**
 * The `buster` kept data is written with: the app's build and the signed-in user. The persist
 * library drops (and deletes) kept data whose buster differs, so a new build never reads data of
 * an older shape, and a user never sees the data another user left on the device.
 * @param build what names the running build (the URL of its hashed entry script).
 * @param userId the signed-in user's id, from the session.
 */
export function offlineCacheBuster(build: string, userId: string): string {
  return JSON.stringify({ build, user: userId });
}

/**
 * Whether data restored for a user belongs to another company than the one the server now says
 * (the user was removed and joined another): then the restored company data must go.
 * @param restoredTenant the company of the restored ['me'] data (undefined: none restored).
 * @param freshTenant the company of ['me'] as the server answered it now (undefined: none).
 */
export function restoredForAnotherCompany(restoredTenant: string | undefined, freshTenant: string | undefined): boolean {
  return restoredTenant !== undefined && restoredTenant !== freshTenant;
}
