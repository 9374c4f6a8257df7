/**
 * Reads a company's history for the forecast backtest (docs/forecast.md "Backtest"): its items,
 * properties, the ledger's usage per property, item and calendar day (the one definition of
 * usage, server/modules/reports/usage-sql.ts `usageRows`), its stays (reservations that hold a
 * calendar, server/modules/stays/stay-rules.ts, with their guests as the forecast counts them) and
 * the stock of its properties at the start of a day. Days are the company's calendar days
 * (`tenants.time_zone`, docs/decisions/036-local-days.md).
 */
import { utc } from '@date-fns/utc';
import { differenceInCalendarDays } from 'date-fns';
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../server/db/client';
import { reservations } from '../../server/db/schema/integrations';
import { units as unitTable } from '../../server/db/schema/stock';
import { withTenant } from '../../server/db/tenant-tx';
import { stayGuests } from '../../server/modules/forecast/model-sql';
import { usageRows } from '../../server/modules/reports/usage-sql';
import { addLocalDays, localDay, localMidnight } from '../../server/modules/stays/local-days';
import { isStay } from '../../server/modules/stays/stay-rules';
import type { BacktestHistory, BacktestStay } from './replay';

/** Calendar days from `from` to `to` ('YYYY-MM-DD'). */
const daysBetween = (from: string, to: string): number =>
  differenceInCalendarDays(new Date(`${to}T00:00:00Z`), new Date(`${from}T00:00:00Z`), { in: utc });

/**
 * The history of `tenantId` from the day of its first ledger row to the day before `now` (the
 * last complete day), in the company's time zone.
 * @throws Error when the company has no ledger rows.
 */
export async function loadHistory(db: Db, tenantId: string, now: Date): Promise<BacktestHistory & { timeZone: string }> {
  return withTenant(db, tenantId, async (tx) => {
    const [tenant] = await queryRows<{ time_zone: string; first: Date | string | null }>(
      tx,
      sql`select t.time_zone, (select min(created_at) from inventory_logs where tenant_id = ${tenantId}) as first
          from tenants t where t.id = ${tenantId}`,
    );
    if (!tenant?.first) throw new Error(`Company ${tenantId} has no ledger rows to replay.`);
    const zone = tenant.time_zone;
    const first = localDay(new Date(tenant.first), zone);
    const lastComplete = addLocalDays(localDay(now, zone), -1);
    const days = Array.from({ length: daysBetween(first, lastComplete) + 1 }, (_, d) => addLocalDays(first, d));

    const units = await queryRows<{ id: string }>(tx, sql`select id from units where tenant_id = ${tenantId} order by name, id`);
    const items = await queryRows<{ id: string; name: string; category: string; minimum_threshold: number; usage_per_stay_default: string | null }>(
      tx,
      sql`select id, name, category, minimum_threshold, usage_per_stay_default from items where tenant_id = ${tenantId} order by name, id`,
    );
    const unitIndex = new Map(units.map((u, i) => [u.id, i]));
    const itemIndex = new Map(items.map((it, i) => [it.id, i]));
    const usage = units.map(() => items.map(() => new Array<number>(days.length).fill(0)));
    const end = localMidnight(addLocalDays(lastComplete, 1), zone);
    const rows = await queryRows<{ unit_id: string; item_id: string; used: number; created_at: Date | string }>(
      tx,
      sql`select u.unit_id, u.item_id, u.used, u.created_at from (${usageRows(tenantId, new Date(tenant.first), end)}) u`,
    );
    for (const row of rows) {
      const d = daysBetween(first, localDay(new Date(row.created_at), zone));
      const u = unitIndex.get(row.unit_id);
      const i = itemIndex.get(row.item_id);
      if (u === undefined || i === undefined || d < 0 || d >= days.length) continue;
      usage[u]![i]![d]! += Number(row.used);
    }

    const stayRows = await tx
      .select({
        id: reservations.id,
        unitId: reservations.unitId,
        arrival: reservations.arrivalDate,
        departure: reservations.departureDate,
        guests: reservations.guests,
        typicalGuests: unitTable.typicalGuests,
      })
      .from(reservations)
      .innerJoin(unitTable, and(eq(unitTable.tenantId, reservations.tenantId), eq(unitTable.id, reservations.unitId)))
      .where(and(eq(reservations.tenantId, tenantId), isStay()));
    const stays: BacktestStay[] = stayRows.map((s) => ({
      id: s.id,
      unitId: s.unitId,
      arrival: s.arrival,
      departure: s.departure,
      // A calendar link's stay says no guests: the property's typical guests, as the forecast counts them.
      guests: stayGuests(s.guests, s.typicalGuests),
      arrivalDay: daysBetween(first, s.arrival),
      departureDay: daysBetween(first, s.departure),
    }));

    return {
      timeZone: zone,
      days,
      unitIds: units.map((u) => u.id),
      items: items.map((it) => ({
        id: it.id,
        name: it.name,
        category: it.category,
        minimum: Number(it.minimum_threshold),
        defaultPerStay: it.usage_per_stay_default === null ? null : Number(it.usage_per_stay_default),
      })),
      usage,
      stays,
    };
  });
}

/**
 * Stock of every property (in `history.unitIds` order) of every item (in `history.items` order)
 * at the start of `history.days[day]` in `zone`: the sum of the ledger rows written before it.
 */
export async function stockAtStartOf(db: Db, tenantId: string, history: BacktestHistory, day: number, zone: string): Promise<number[][]> {
  const at = localMidnight(history.days[day]!, zone);
  const rows = await withTenant(db, tenantId, (tx) =>
    queryRows<{ unit_id: string; item_id: string; quantity: number }>(
      tx,
      sql`select unit_id, item_id, sum(quantity_change)::int as quantity from inventory_logs
          where tenant_id = ${tenantId} and source_type = 'unit' and created_at < ${at.toISOString()}::timestamptz
          group by unit_id, item_id`,
    ),
  );
  const stock = history.unitIds.map(() => history.items.map(() => 0));
  const unitIndex = new Map(history.unitIds.map((id, i) => [id, i]));
  const itemIndex = new Map(history.items.map((it, i) => [it.id, i]));
  for (const row of rows) {
    const u = unitIndex.get(row.unit_id);
    const i = itemIndex.get(row.item_id);
    if (u !== undefined && i !== undefined) stock[u]![i] = Number(row.quantity);
  }
  return stock;
}
