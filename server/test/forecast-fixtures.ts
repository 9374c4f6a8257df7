/**
 * A known company for the forecast's tests (docs/product.md "Forecast"): two items, storage, and
 * properties, set up through the API; stays stored as demo reservations.
 */
import { sql } from 'drizzle-orm';
import { withTenant } from '../db/tenant-tx';
import { api, onboard, signUpAndSignIn, type TestApp } from './harness';

export interface Company {
  cookie: string;
  tenantId: string;
  garageId: string;
  item: Record<string, string>;
  unit: Record<string, string>;
}

/** Signs up and sets up a company with `units`, each with a stock row of 0 of every item. */
export async function company(t: TestApp, email: string, units: string[]): Promise<Company> {
  const cookie = await signUpAndSignIn(t, email);
  const tenantId = await onboard(t, cookie, {
    items: [
      { name: 'Bath Towel', category: 'Linen', minimum_threshold: 3, count_cost: 6.5 },
      { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45 },
    ],
    units: units.map((name) => ({ name, address: `${name} Road` })),
  });
  const items = (await api(t, cookie, 'GET', '/api/items')).json() as { id: string; name: string }[];
  const listed = (await api(t, cookie, 'GET', '/api/units')).json() as { id: string; name: string }[];
  const garages = (await api(t, cookie, 'GET', '/api/garages')).json() as { id: string }[];
  return {
    cookie,
    tenantId,
    garageId: garages[0]!.id,
    item: Object.fromEntries(items.map((i) => [i.name, i.id])),
    unit: Object.fromEntries(listed.map((u) => [u.name, u.id])),
  };
}

/** Stores stays as demo reservations: [unit id, id, arrival, departure, guests (null: unknown), status]. */
export async function addStays(t: TestApp, tenantId: string, stays: [string, string, string, string, number | null, string?][]): Promise<void> {
  await withTenant(t.database.db, tenantId, async (tx) => {
    for (const [unitId, id, arrival, departure, guests, status] of stays) {
      await tx.execute(sql`insert into reservations (tenant_id, source, id, unit_id, arrival_date, departure_date, guests, status)
        values (${tenantId}, 'demo', ${id}, ${unitId}, ${arrival}::date, ${departure}::date, ${guests}::int, ${status ?? 'confirmed'})`);
    }
  });
}

/** The JSON of an answer that must be 200. */
export function ok<T>(res: { statusCode: number; body: string; json(): unknown }): T {
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json() as T;
}
