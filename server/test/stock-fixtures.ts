/**
 * Stock fixtures for API tests: a signed-in, onboarded tenant with named items, a garage and a
 * unit, plus ledger checks shared by the stock tests.
 */
import { queryRows } from '../db/client';
import type { TenantIdentity } from '../modules/auth/identity';
import { ledgerMismatchesSql } from '../modules/stock/rules';
import { api, onboard, signUpAndSignIn, type TestApp } from './harness';

export interface StockTenant {
  cookie: string;
  tenantId: string;
  itemIds: Record<string, string>;
  garageId: string;
  unitId: string;
  /** The signed-up owner, as services receive it, for tests that call them directly. */
  owner: TenantIdentity;
}

/** Signs up `email`, onboards with `items`, and returns the ids of what setup created. */
export async function stockTenant(
  t: TestApp,
  email: string,
  items: { name: string; category: string; minimum_threshold?: number; count_cost?: number }[] = [
    { name: 'Bath Towel', category: 'Linen', minimum_threshold: 3, count_cost: 6.5 },
    { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45 },
  ],
): Promise<StockTenant> {
  const cookie = await signUpAndSignIn(t, email);
  const tenantId = await onboard(t, cookie, { items, units: [{ name: 'Beach House', address: '2 Shore Lane' }] });
  const listed = (await api(t, cookie, 'GET', '/api/items')).json() as { id: string; name: string }[];
  const garages = (await api(t, cookie, 'GET', '/api/garages')).json() as { id: string }[];
  const units = (await api(t, cookie, 'GET', '/api/units')).json() as { id: string }[];
  const me = (await api(t, cookie, 'GET', '/api/me')).json() as { user: { id: string } };
  return {
    cookie,
    tenantId,
    itemIds: Object.fromEntries(listed.map((i) => [i.name, i.id])),
    garageId: garages[0]!.id,
    unitId: units[0]!.id,
    owner: { userId: me.user.id, email, tenantId, role: 'owner' },
  };
}

/** Stock rows whose quantity differs from the sum of their movements (should be none), over every tenant. */
export async function ledgerMismatches(t: TestApp): Promise<unknown[]> {
  return queryRows(t.database.db, ledgerMismatchesSql);
}
