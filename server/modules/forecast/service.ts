/**
 * The restock forecast (docs/product.md "Forecast", "Pick lists"): which upcoming check-in would
 * find a property short of an item, what to bring, what a storage garage hands out on a day, how
 * a pick list is delivered, and what a garage should order. The arithmetic is model.ts's; the
 * rates come from the cache of rates.ts, learned again first when stale.
 *
 * Days: a property's "today" is the day `now` falls on in its time zone (`units.time_zone`, else
 * the company's `tenants.time_zone`); stays are stored in the property's local dates. A pick
 * list's day is the company's (stays/local-days.ts, docs/decisions/036-local-days.md).
 *
 * Performance: a company may have 1,000 properties of 100 items. The database aggregates each
 * property's stays of the horizon and keeps only the (property, item) pairs whose stock minus ALL
 * the horizon's expected use (model-sql.ts `expectedUseSql`) is below the item's minimum: any
 * other pair starts no arrival short and needs nothing brought (each arrival's stock before it is
 * at least that), so the pre-filter is exact. Only those pairs are projected in JavaScript.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  PICK_LIST_DAYS_AHEAD,
  PICK_LIST_HORIZON_DAYS,
  FORECAST_PROPERTIES_SHOWN,
  SUMMARY_HORIZON_DAYS,
  type DeliverPickListResult,
  type ForecastAnswer,
  type ForecastStay,
  type ItemForecast,
  type OrderForecastAnswer,
  type PickListAnswer,
  type PropertyForecast,
  type ForecastSummary,
  type UnitForecastAnswer,
} from '../../../common/contracts/forecast';
import { pgArray, queryRows, type Db, type Tx } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { AppError, notFound } from '../../lib/errors';
import type { TenantIdentity } from '../auth/session';
import { movementsWrittenAt } from '../stock/ledger';
import { transferToUnits } from '../stock/transfer';
import { addLocalDays, companyZone, isTimeZone, localDay } from '../stays/local-days';
import { isStay } from '../stays/stay-rules';
import { nightsOf, projectItem, type ItemProjection, type ModelStay, type Rate } from './model';
import { expectedUseSql, stayGuestsSql, stayNightsSql } from './model-sql';
import { freshRates } from './rates';

/** A property in scope, with its today and the stays of its window. */
interface UnitRow {
  unit_id: string;
  unit_name: string;
  address: string;
  garage_id: string | null;
  garage_name: string | null;
  today: string;
  stays: number;
}

/** A stock row of a property with its item and the rate in force. */
interface PairRow {
  unit_id: string;
  item_id: string;
  item_name: string;
  category: string;
  quantity: number;
  minimum_threshold: number;
  per_stay: number;
  per_guest_night: number;
  fixed_share: number;
  basis: Rate['basis'];
  rate_stays: number;
}

/** A stay of the window, guests as the forecast counts them. */
interface StayRow {
  unit_id: string;
  source: ForecastStay['source'];
  id: string;
  arrival_date: string;
  departure_date: string;
  guests: number;
}

/** A projected stock row. */
interface Projected {
  pair: PairRow;
  rate: Rate;
  projection: ItemProjection;
}

/** What {@link project} finds for the properties in scope. */
interface Projection {
  units: UnitRow[];
  staysOf: Map<string, StayRow[]>;
  pairsOf: Map<string, Projected[]>;
}

/**
 * Which properties and stays a projection covers. `units` is a predicate on the units row `u`;
 * stays count when not departed before the property's today and arriving before `end`: a number
 * of days after that today, or one calendar date. `every`: project every stock row and load the
 * stays of every property (one property's page, a pick list); else only the pre-filtered pairs.
 */
interface Scope {
  units: SQL;
  end: { days: number } | { date: string };
  every: boolean;
}

/** SQL `with` clause naming `us`, the properties in scope with their today and window end, and `st`, their stays' totals. */
async function scopeCte(tx: Tx, tenantId: string, now: Date, scope: Scope): Promise<SQL> {
  const zones = await queryRows<{ zone: string }>(
    tx,
    sql`select distinct coalesce(u.time_zone, t.time_zone) as zone from units u join tenants t on t.id = u.tenant_id
        where u.tenant_id = ${tenantId} and ${scope.units}`,
  );
  // A zone this server does not know counts as UTC (a property's time zone is validated when set).
  const days = JSON.stringify(zones.map((z) => ({ zone: z.zone, today: localDay(now, isTimeZone(z.zone) ? z.zone : 'UTC') })));
  const end = 'days' in scope.end ? sql`us0.today + ${scope.end.days}::int` : sql`${scope.end.date}::date`;
  return sql`
    with zt as (select * from json_to_recordset(${days}::json) as z(zone text, today date)),
    us0 as (
      select u.id, u.name, u.address, u.garage_id, u.typical_guests, zt.today
      from units u join tenants t on t.id = u.tenant_id join zt on zt.zone = coalesce(u.time_zone, t.time_zone)
      where u.tenant_id = ${tenantId} and ${scope.units}),
    us as (select us0.*, ${end} as end_day from us0),
    st as (
      select reservations.unit_id, count(*)::int as stays,
        sum(${stayGuestsSql(sql`reservations.guests`, sql`us.typical_guests`)} * ${stayNightsSql(sql`reservations.arrival_date`, sql`reservations.departure_date`)})::bigint as guest_nights
      from reservations join us on us.id = reservations.unit_id
      where reservations.tenant_id = ${tenantId} and ${isStay()} and reservations.departure_date > us.today and reservations.arrival_date < us.end_day
      group by reservations.unit_id)`;
}

/**
 * The rate in force of a stock row `s` of item `i`: the property's, else the company's, else the
 * item's default (docs/product.md "Forecast"). The minimum is the stock row's copy of the item's
 * threshold (kept equal by its foreign key); rates travel as double precision, parsed as numbers.
 */
const pairColumns = sql`
  s.unit_id, s.item_id, s.quantity, s.item_threshold as minimum_threshold,
  coalesce(ur.per_stay, iur.per_stay, i.usage_per_stay_default, 0)::float8 as per_stay,
  coalesce(ur.per_guest_night, iur.per_guest_night, 0)::float8 as per_guest_night,
  coalesce(ur.fixed_share, iur.fixed_share, 1)::float8 as fixed_share,
  coalesce(ur.basis, iur.basis, case when i.usage_per_stay_default is null then 'none' else 'default' end) as basis,
  coalesce(ur.stays, 0) as rate_stays`;

/** Orders names as people read them; one collator, since String#localeCompare builds one per call. */
const byName = new Intl.Collator('en').compare;

/** Orders ids and 'YYYY-MM-DD' days by their characters. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Rounds an expected quantity to one decimal, as the answers show it. */
const oneDecimal = (n: number): number => Math.round(n * 10) / 10;

const modelStay = (s: StayRow): ModelStay => ({ id: s.id, arrival: s.arrival_date, departure: s.departure_date, guests: Number(s.guests) });

/**
 * Projects the stock rows of the properties in `scope` over their stays (module comment),
 * inside the caller's tenant transaction.
 */
async function project(tx: Tx, tenantId: string, now: Date, scope: Scope): Promise<Projection> {
  const cte = await scopeCte(tx, tenantId, now, scope);
  const units = await queryRows<UnitRow>(
    tx,
    sql`${cte}
        select us.id as unit_id, us.name as unit_name, us.address, us.garage_id, g.name as garage_name, us.today::text as today, coalesce(st.stays, 0) as stays
        from us left join st on st.unit_id = us.id left join garages g on g.tenant_id = ${tenantId} and g.id = us.garage_id
        order by us.name, us.id`,
  );
  const rate = { perStay: sql`p.per_stay`, perGuestNight: sql`p.per_guest_night`, fixedShare: sql`p.fixed_share` };
  // Only numbers and ids per stock row (a large company has 100,000): the items' names come once
  // per item, below. The company's rates are read once, as a whole (materialized), and hashed:
  // looking each stock row's rate up by its key costs 100,000 index probes (0.5 s) for a large
  // company.
  const rows = await queryRows<Omit<PairRow, 'item_name' | 'category'>>(
    tx,
    sql`${cte},
        ur as materialized (select unit_id, item_id, per_stay, per_guest_night, fixed_share, basis, stays from usage_rates where tenant_id = ${tenantId})
        select p.* from (
          select ${pairColumns}
          from us
          join unit_inventory s on s.tenant_id = ${tenantId} and s.unit_id = us.id
          join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
          left join ur on ur.unit_id = s.unit_id and ur.item_id = s.item_id
          left join item_usage_rates iur on iur.tenant_id = s.tenant_id and iur.item_id = s.item_id) p
        ${
          scope.every
            ? sql``
            : sql`join st on st.unit_id = p.unit_id
                  where p.quantity - ${expectedUseSql(rate, sql`st.stays`, sql`st.guest_nights`)} < p.minimum_threshold + 0.000001`
        }`,
  );
  // Items in name order once; stock rows then sort by the item's place (comparing names 46,000
  // times with a collator cost 1.5 s on a large company).
  const items = await queryRows<{ id: string; name: string; category: string }>(tx, sql`select id, name, category from items where tenant_id = ${tenantId}`);
  items.sort((a, b) => byName(a.name, b.name) || byText(a.id, b.id));
  const itemAt = new Map(items.map((item, place) => [item.id, { item, place }]));
  const pairs: PairRow[] = rows
    .map((r) => ({ row: r, at: itemAt.get(r.item_id)! }))
    .sort((a, b) => a.at.place - b.at.place)
    .map(({ row, at }) => ({ ...row, item_name: at.item.name, category: at.item.category }));
  const unitIds = scope.every ? units.map((u) => u.unit_id) : [...new Set(pairs.map((p) => p.unit_id))];
  const stays =
    unitIds.length === 0
      ? []
      : await queryRows<StayRow>(
          tx,
          sql`${cte}
              select reservations.unit_id, reservations.source, reservations.id, reservations.arrival_date::text as arrival_date,
                reservations.departure_date::text as departure_date, ${stayGuestsSql(sql`reservations.guests`, sql`us.typical_guests`)} as guests
              from reservations join us on us.id = reservations.unit_id
              where reservations.tenant_id = ${tenantId} and ${isStay()} and reservations.unit_id = any(${pgArray(unitIds)}::uuid[])
                and reservations.departure_date > us.today and reservations.arrival_date < us.end_day
              order by reservations.arrival_date, reservations.id`,
        );
  const staysOf = new Map<string, StayRow[]>();
  const modelStaysOf = new Map<string, ModelStay[]>();
  for (const s of stays) {
    if (!staysOf.has(s.unit_id)) {
      staysOf.set(s.unit_id, []);
      modelStaysOf.set(s.unit_id, []);
    }
    staysOf.get(s.unit_id)!.push(s);
    modelStaysOf.get(s.unit_id)!.push(modelStay(s));
  }
  const todayOf = new Map(units.map((u) => [u.unit_id, u.today]));
  const pairsOf = new Map<string, Projected[]>();
  for (const pair of pairs) {
    const rate: Rate = { perStay: Number(pair.per_stay), perGuestNight: Number(pair.per_guest_night), fixedShare: Number(pair.fixed_share), basis: pair.basis };
    const projection = projectItem(Number(pair.quantity), Number(pair.minimum_threshold), rate, modelStaysOf.get(pair.unit_id) ?? [], todayOf.get(pair.unit_id)!);
    if (!pairsOf.has(pair.unit_id)) pairsOf.set(pair.unit_id, []);
    pairsOf.get(pair.unit_id)!.push({ pair, rate, projection });
  }
  return { units, staysOf, pairsOf };
}

/** A projected stock row as the answers show it. */
function itemForecast({ pair, projection }: Projected): ItemForecast {
  const s = projection.shortfall;
  return {
    item_id: pair.item_id,
    item_name: pair.item_name,
    category: pair.category,
    quantity: Number(pair.quantity),
    minimum_threshold: Number(pair.minimum_threshold),
    expected_use: oneDecimal(projection.expectedUse),
    shortfall: s ? { stay_id: s.stay.id, arrival_date: s.stay.arrival, kind: s.kind, projected: oneDecimal(s.projected) } : null,
    bring: projection.bring,
  };
}

/** Orders short items: earliest shortfall first, running out before below the minimum, then by name. */
const byShortfall = (a: ItemForecast, b: ItemForecast): number =>
  byText(a.shortfall!.arrival_date, b.shortfall!.arrival_date) ||
  (a.shortfall!.kind === b.shortfall!.kind ? 0 : a.shortfall!.kind === 'runs_out' ? -1 : 1) ||
  byName(a.item_name, b.item_name);

/**
 * The properties that would start a check-in short of some item within `horizon` days (3, 7 or
 * 14), with those items only, most urgent first: the earliest first short arrival, one that runs
 * out before one only below its minimum, more items short, then by name. At most
 * FORECAST_PROPERTIES_SHOWN are listed; `properties_short` counts them all.
 * Source: docs/product.md "Forecast". The rates are learned first when stale (rates.ts).
 */
export async function companyForecast(db: Db, who: TenantIdentity, horizon: number, now: Date): Promise<ForecastAnswer> {
  const tenantId = who.tenantId;
  const learnedAt = await freshRates(db, tenantId, now);
  return withTenant(db, tenantId, async (tx) => {
    const today = localDay(now, await companyZone(tx, tenantId));
    const { units, pairsOf } = await project(tx, tenantId, now, { units: sql`true`, end: { days: horizon }, every: false });
    const short: PropertyForecast[] = [];
    for (const unit of units) {
      const items = (pairsOf.get(unit.unit_id) ?? []).filter((p) => p.projection.shortfall).map(itemForecast).sort(byShortfall);
      if (items.length === 0) continue;
      short.push({
        unit_id: unit.unit_id,
        unit_name: unit.unit_name,
        garage_id: unit.garage_id,
        garage_name: unit.garage_name,
        first_shortfall_date: items[0]!.shortfall!.arrival_date,
        stays: Number(unit.stays),
        items,
      });
    }
    short.sort(
      (a, b) =>
        byText(a.first_shortfall_date, b.first_shortfall_date) ||
        byShortfall(a.items[0]!, b.items[0]!) ||
        b.items.length - a.items.length ||
        byName(a.unit_name, b.unit_name) ||
        byText(a.unit_id, b.unit_id),
    );
    return {
      horizon_days: horizon,
      today,
      properties_short: short.length,
      properties: short.slice(0, FORECAST_PROPERTIES_SHOWN),
      properties_with_stays: units.filter((u) => Number(u.stays) > 0).length,
      rates_learned_at: learnedAt.toISOString(),
    };
  });
}

/**
 * The Dashboard card "Runs out before a check-in" (docs/product.md "Forecast"): the properties
 * short within {@link SUMMARY_HORIZON_DAYS} days, the first three with up to three item names each.
 */
export async function forecastSummary(db: Db, who: TenantIdentity, now: Date): Promise<ForecastSummary> {
  const forecast = await companyForecast(db, who, SUMMARY_HORIZON_DAYS, now);
  return {
    horizon_days: forecast.horizon_days,
    properties_short: forecast.properties_short,
    first: forecast.properties.slice(0, 3).map((p) => ({
      unit_id: p.unit_id,
      unit_name: p.unit_name,
      arrival_date: p.first_shortfall_date,
      kind: p.items[0]!.shortfall!.kind,
      item_names: p.items.slice(0, 3).map((i) => i.item_name),
      items_short: p.items.length,
    })),
  };
}

/**
 * One property over `horizon` days (docs/product.md "Forecast"): its stays of the horizon (under
 * way or arriving) and every item it holds a stock row of, with the rate in force.
 * @throws 404 'Unit not found' for a unit of no property of the company.
 */
export async function unitForecast(db: Db, who: TenantIdentity, unitId: string, horizon: number, now: Date): Promise<UnitForecastAnswer> {
  const tenantId = who.tenantId;
  await freshRates(db, tenantId, now);
  return withTenant(db, tenantId, async (tx) => {
    const { units, staysOf, pairsOf } = await project(tx, tenantId, now, { units: sql`u.id = ${unitId}`, end: { days: horizon }, every: true });
    const unit = units[0];
    if (!unit) throw notFound('Unit');
    return {
      unit_id: unit.unit_id,
      horizon_days: horizon,
      today: unit.today,
      stays: (staysOf.get(unit.unit_id) ?? []).map((s) => ({
        id: s.id,
        source: s.source,
        arrival_date: s.arrival_date,
        departure_date: s.departure_date,
        guests: Number(s.guests),
        nights: nightsOf({ arrival: s.arrival_date, departure: s.departure_date }),
        under_way: s.arrival_date < unit.today,
      })),
      items: (pairsOf.get(unit.unit_id) ?? []).map((p) => ({
        ...itemForecast(p),
        rate: { item_id: p.pair.item_id, per_stay: p.rate.perStay, per_guest_night: p.rate.perGuestNight, stays: Number(p.pair.rate_stays), basis: p.rate.basis },
      })),
    };
  });
}

/**
 * The pick list of a storage garage for day `date` (docs/product.md "Pick lists"; default:
 * tomorrow in the company's time zone, which must be today or later and at most
 * PICK_LIST_DAYS_AHEAD days ahead): the properties assigned to the garage with a stay arriving
 * that day, by name; for each, the items to bring so that no arrival before `date` +
 * PICK_LIST_HORIZON_DAYS starts short (projected from now), with the property's stock, the
 * garage's, and what of it the garage cannot cover once the properties listed before have taken
 * theirs. Takes a tenant id, not a request: the daily email calls it from a job.
 * @throws 404 'Garage not found'; VALIDATION 'Date must be today or later' | 'Date must be at most 60 days ahead'
 */
export async function garagePickList(db: Db, tenantId: string, garageId: string, date: string | undefined, now: Date): Promise<PickListAnswer> {
  await freshRates(db, tenantId, now);
  return withTenant(db, tenantId, async (tx) => {
    const [garage] = await queryRows<{ name: string }>(tx, sql`select name from garages where tenant_id = ${tenantId} and id = ${garageId}`);
    if (!garage) throw notFound('Garage');
    const today = localDay(now, await companyZone(tx, tenantId));
    const day = date ?? addLocalDays(today, 1);
    if (day < today) throw new AppError('VALIDATION', 'Date must be today or later');
    if (day > addLocalDays(today, PICK_LIST_DAYS_AHEAD)) throw new AppError('VALIDATION', `Date must be at most ${PICK_LIST_DAYS_AHEAD} days ahead`);
    const arriving = sql`u.garage_id = ${garageId} and exists (
      select 1 from reservations where reservations.tenant_id = u.tenant_id and reservations.unit_id = u.id and ${isStay()} and reservations.arrival_date = ${day}::date)`;
    const { units, staysOf, pairsOf } = await project(tx, tenantId, now, {
      units: arriving,
      end: { date: addLocalDays(day, PICK_LIST_HORIZON_DAYS) },
      every: false,
    });
    const held = await queryRows<{ item_id: string; quantity: number }>(
      tx,
      sql`select item_id, quantity from garage_inventory where tenant_id = ${tenantId} and garage_id = ${garageId}`,
    );
    const left = new Map(held.map((h) => [h.item_id, Number(h.quantity)]));
    const garageQuantity = new Map(left);
    return {
      garage_id: garageId,
      garage_name: garage.name,
      date: day,
      horizon_days: PICK_LIST_HORIZON_DAYS,
      properties: units.map((unit) => ({
        unit_id: unit.unit_id,
        unit_name: unit.unit_name,
        address: unit.address,
        arrivals: (staysOf.get(unit.unit_id) ?? [])
          .filter((s) => s.arrival_date === day)
          .map((s) => ({ stay_id: s.id, arrival_date: s.arrival_date, guests: Number(s.guests), nights: nightsOf({ arrival: s.arrival_date, departure: s.departure_date }) })),
        lines: (pairsOf.get(unit.unit_id) ?? [])
          .filter((p) => p.projection.bring > 0)
          .map(({ pair, projection }) => {
            const available = left.get(pair.item_id) ?? 0;
            left.set(pair.item_id, Math.max(0, available - projection.bring));
            return {
              item_id: pair.item_id,
              item_name: pair.item_name,
              category: pair.category,
              quantity: Number(pair.quantity),
              bring: projection.bring,
              garage_quantity: garageQuantity.get(pair.item_id) ?? 0,
              short: Math.max(0, projection.bring - available),
            };
          }),
      })),
    };
  });
}

/** A stay arriving on a day, for the daily email. */
export interface Arrival {
  unit_id: string;
  unit_name: string;
  stay_id: string;
  arrival_date: string;
  guests: number;
  nights: number;
}

/**
 * The company's stays arriving on `date` ('YYYY-MM-DD', the properties' local dates), by property
 * name; guests as the forecast counts them (docs/product.md "Forecast").
 */
export async function companyArrivals(db: Db, tenantId: string, date: string): Promise<Arrival[]> {
  const rows = await withTenant(db, tenantId, (tx) =>
    queryRows<Omit<Arrival, 'nights'> & { departure_date: string }>(
      tx,
      sql`select u.id as unit_id, u.name as unit_name, reservations.id as stay_id, reservations.arrival_date::text as arrival_date,
            reservations.departure_date::text as departure_date, ${stayGuestsSql(sql`reservations.guests`, sql`u.typical_guests`)} as guests
          from reservations join units u on u.tenant_id = reservations.tenant_id and u.id = reservations.unit_id
          where reservations.tenant_id = ${tenantId} and ${isStay()} and reservations.arrival_date = ${date}::date
          order by u.name, u.id, reservations.id`,
    ),
  );
  return rows.map(({ departure_date, ...r }) => ({ ...r, guests: Number(r.guests), nights: nightsOf({ arrival: r.arrival_date, departure: departure_date }) }));
}

/**
 * "Mark as delivered" of a pick list (docs/product.md "Pick lists"): the lines become `restock`
 * transfers from the property's garage (stock/transfer.ts, noted 'Pick list'), in one
 * transaction, all or nothing.
 * @returns the ledger rows written at the property (what Undo reverses) and what was delivered.
 * @throws 404 'Unit not found' | 'Stock row not found' (an item the property holds no row of);
 *   CONFLICT 'No garage assigned to this unit' | '{garage} has only {n} {item} ({m} needed), …'.
 */
export async function deliverPickList(
  db: Db,
  who: TenantIdentity,
  unitId: string,
  lines: { item_id: string; quantity: number }[],
): Promise<DeliverPickListResult> {
  const tenantId = who.tenantId;
  return withTenant(db, tenantId, async (tx) => {
    const [unit] = await queryRows<{ garage_id: string | null; garage_name: string | null }>(
      tx,
      sql`select u.garage_id, g.name as garage_name from units u left join garages g on g.tenant_id = u.tenant_id and g.id = u.garage_id
          where u.tenant_id = ${tenantId} and u.id = ${unitId}`,
    );
    if (!unit) throw notFound('Unit');
    if (!unit.garage_id) throw new AppError('CONFLICT', 'No garage assigned to this unit');
    const outcomes = await transferToUnits(
      tx,
      tenantId,
      lines.map((l) => ({ unitId, itemId: l.item_id, quantity: l.quantity, userId: who.userId })),
      { type: 'restock', note: 'Pick list' },
    );
    if (outcomes.some((o) => o.kind === 'no_stock_row')) throw notFound('Stock row');
    if (outcomes.some((o) => o.kind === 'no_garage')) throw new AppError('CONFLICT', 'No garage assigned to this unit');
    const shortIds = lines.filter((_, k) => outcomes[k]!.kind === 'garage_short').map((l) => l.item_id);
    if (shortIds.length > 0) {
      // The transfer holds the garage's rows now: what it read is what this names.
      const held = await queryRows<{ item_id: string; name: string; quantity: number | null }>(
        tx,
        sql`select i.id as item_id, i.name, g.quantity from items i
            left join garage_inventory g on g.tenant_id = i.tenant_id and g.item_id = i.id and g.garage_id = ${unit.garage_id}
            where i.tenant_id = ${tenantId} and i.id = any(${pgArray(shortIds)}::uuid[])`,
      );
      const byId = new Map(held.map((h) => [h.item_id, h]));
      const parts = lines
        .filter((l) => shortIds.includes(l.item_id))
        .map((l) => `${Number(byId.get(l.item_id)?.quantity ?? 0)} ${byId.get(l.item_id)?.name ?? 'Deleted item'} (${l.quantity} needed)`);
      throw new AppError('CONFLICT', `${unit.garage_name} has only ${parts.join(', ')}`);
    }
    return {
      movement_ids: await movementsWrittenAt(tx, tenantId, { kind: 'unit', id: unitId }, lines.map((l) => l.item_id)),
      delivered: lines.map((l) => ({ item_id: l.item_id, quantity: l.quantity })),
    };
  });
}

/**
 * Reorder from the forecast (docs/product.md "Pick lists"): per item the garage holds or its
 * properties need, the garage's stock, the item's minimum threshold, what its properties need
 * brought over the garage's lead time (the sum of their `bring` over the stays arriving before
 * their today + `lead_time_days`), and the order: max(0, needed + minimum − garage stock).
 * @throws 404 'Garage not found'.
 */
export async function garageOrderForecast(db: Db, who: TenantIdentity, garageId: string, now: Date): Promise<OrderForecastAnswer> {
  const tenantId = who.tenantId;
  await freshRates(db, tenantId, now);
  return withTenant(db, tenantId, async (tx) => {
    const [garage] = await queryRows<{ name: string; lead_time_days: number }>(
      tx,
      sql`select name, lead_time_days from garages where tenant_id = ${tenantId} and id = ${garageId}`,
    );
    if (!garage) throw notFound('Garage');
    const lead = Number(garage.lead_time_days);
    const { pairsOf } = await project(tx, tenantId, now, { units: sql`u.garage_id = ${garageId}`, end: { days: lead }, every: false });
    const needed = new Map<string, number>();
    for (const p of [...pairsOf.values()].flat()) needed.set(p.pair.item_id, (needed.get(p.pair.item_id) ?? 0) + p.projection.bring);
    const rows = await queryRows<{ item_id: string; item_name: string; category: string; minimum_threshold: number; garage_quantity: number }>(
      tx,
      sql`select i.id as item_id, i.name as item_name, i.category, i.minimum_threshold, coalesce(g.quantity, 0) as garage_quantity
          from items i left join garage_inventory g on g.tenant_id = i.tenant_id and g.item_id = i.id and g.garage_id = ${garageId}
          where i.tenant_id = ${tenantId} and (g.item_id is not null or i.id = any(${pgArray([...needed.keys()])}::uuid[]))`,
    );
    const items = rows.map((r) => {
      const need = needed.get(r.item_id) ?? 0;
      const order = Math.max(0, need + Number(r.minimum_threshold) - Number(r.garage_quantity));
      return { ...r, minimum_threshold: Number(r.minimum_threshold), garage_quantity: Number(r.garage_quantity), needed: need, order };
    });
    items.sort((a, b) => b.order - a.order || byName(a.item_name, b.item_name) || byText(a.item_id, b.item_id));
    return { garage_id: garageId, garage_name: garage.name, lead_time_days: lead, today: localDay(now, await companyZone(tx, tenantId)), items };
  });
}
