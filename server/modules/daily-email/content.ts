/**
 * What the morning email says (docs/product.md "Daily email"), read once per company and day:
 * tomorrow's arrivals, each storage garage's pick list for tomorrow and the stock rows that are
 * critical now. "Tomorrow" is the day after `day`, the company's today in its time zone
 * (`tenants.time_zone`); arrival dates are the properties' own calendar dates (docs/product.md
 * "Stays"), compared as dates.
 */
import { sql } from 'drizzle-orm';
import type { PickListAnswer } from '../../../common/contracts/forecast';
import { queryRows, type Db } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { parseJsonText } from '../../lib/json-text';
import { companyArrivals, garagePickList, type Arrival } from '../forecast/service';
import { addLocalDays } from '../stays/local-days';
import { isCriticalSql } from '../stock/rules';

/** Critical rows listed in the email; the rest are counted ("and 12 more"). */
export const CRITICAL_LISTED = 50;

export interface CriticalRow {
  location_type: 'unit' | 'garage';
  location: string;
  item: string;
  quantity: number;
}

export interface DailyDigest {
  company: string;
  /** The company's today ('YYYY-MM-DD'). */
  day: string;
  /** The day after `day`: the arrivals' and pick lists' day. */
  tomorrow: string;
  /** Tomorrow's arrivals, by property name. */
  arrivals: Arrival[];
  /** Critical rows, units first, then garages, each by location and item; at most CRITICAL_LISTED. */
  critical: CriticalRow[];
  /** All critical rows, listed or not. */
  criticalTotal: number;
}

/**
 * The digest of the company `tenantId` for its day `day`.
 * @throws whatever the database throws.
 */
export async function readDigest(db: Db, tenantId: string, day: string): Promise<DailyDigest> {
  const tomorrow = addLocalDays(day, 1);
  // Guests and nights as the forecast counts them (docs/product.md "Stays").
  const arrivals = await companyArrivals(db, tenantId, tomorrow);
  return withTenant(db, tenantId, async (tx) => {
    const [company] = await queryRows<{ name: string }>(tx, sql`select name from tenants where id = ${tenantId}`);
    const rows = sql`
      select 'unit' as location_type, u.name as location, i.name as item, s.quantity
      from unit_inventory s
      join units u on u.tenant_id = s.tenant_id and u.id = s.unit_id
      join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
      where s.tenant_id = ${tenantId} and ${isCriticalSql(sql`s.quantity`)}
      union all
      select 'garage', g.name, i.name, s.quantity
      from garage_inventory s
      join garages g on g.tenant_id = s.tenant_id and g.id = s.garage_id
      join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
      where s.tenant_id = ${tenantId} and ${isCriticalSql(sql`s.quantity`)}`;
    const critical = await queryRows<CriticalRow>(
      tx,
      sql`select location_type, location, item, quantity::int from (${rows}) c
          order by location_type = 'unit' desc, location, item limit ${CRITICAL_LISTED}`,
    );
    const [total] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from (${rows}) c`);
    return {
      company: company?.name ?? '',
      day,
      tomorrow,
      arrivals,
      critical: critical.map((c) => ({ ...c, quantity: Number(c.quantity) })),
      criticalTotal: Number(total!.n),
    };
  });
}

/**
 * The pick lists of the company's garages for `date` (its tomorrow), by garage name, each from
 * the forecast (docs/product.md "Pick lists"); garages with no property arriving that day are
 * left out.
 * @throws whatever `garagePickList` throws.
 */
export async function readPickLists(db: Db, tenantId: string, date: string, now: Date): Promise<PickListAnswer[]> {
  const garages = await withTenant(db, tenantId, (tx) =>
    queryRows<{ id: string }>(tx, sql`select id from garages where tenant_id = ${tenantId} order by name, id`),
  );
  const lists: PickListAnswer[] = [];
  // One after the other: each reads in its own transaction (PGlite is one connection anyway).
  for (const garage of garages) lists.push(parseJsonText(await garagePickList(db, tenantId, garage.id, date, now)));
  return lists.filter((list) => list.properties.length > 0);
}
